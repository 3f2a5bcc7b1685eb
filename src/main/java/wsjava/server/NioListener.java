package wsjava.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/** The listening socket on NIO: a non-blocking {@link ServerSocketChannel} on the first loop's selector. */
final class NioListener implements ListeningSocket {

    private final ServerSocketChannel channel;
    private final int port;
    private SelectionKey key;

    NioListener(String host, int port, int backlog) throws IOException {
        channel = ServerSocketChannel.open();
        try {
            channel.bind(new InetSocketAddress(host, port), backlog);
            channel.configureBlocking(false);
            this.port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    void register(Selector selector, Acceptor acceptor) throws IOException {
        key = channel.register(selector, SelectionKey.OP_ACCEPT, acceptor);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public ConnectionSocket accept() throws IOException {
        for (;;) {
            SocketChannel accepted = channel.accept();
            if (accepted == null) {
                return null;
            }
            try {
                accepted.configureBlocking(false);
                // setOption, not socket().setTcpNoDelay: the socket adaptor would stay with the channel (80 bytes each)
                accepted.setOption(StandardSocketOptions.TCP_NODELAY, true);
                return new NioSocket(accepted);
            } catch (IOException e) {
                accepted.close();       // that one is gone already: take the next
            }
        }
    }

    @Override
    public void watchAccepts(boolean on) {
        if (key != null && key.isValid()) {
            key.interestOps(on ? SelectionKey.OP_ACCEPT : 0);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // the channel is going away anyway
        }
    }
}
