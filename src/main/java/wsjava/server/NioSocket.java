package wsjava.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/** A connection's socket on NIO: the channel and, once its loop registered it, its selection key. */
final class NioSocket implements ConnectionSocket {

    private final SocketChannel channel;
    private SelectionKey key;

    NioSocket(SocketChannel channel) {
        this.channel = channel;
    }

    SocketChannel channel() {
        return channel;
    }

    void registered(SelectionKey selectionKey) {
        key = selectionKey;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return channel.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return channel.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return channel.write(srcs, offset, length);
    }

    @Override
    public void watchReads(boolean on) {
        setInterest(SelectionKey.OP_READ, on);
    }

    @Override
    public boolean watchesReads() {
        return key != null && key.isValid() && (key.interestOps() & SelectionKey.OP_READ) != 0;
    }

    @Override
    public void watchWrites(boolean on) {
        setInterest(SelectionKey.OP_WRITE, on);
    }

    @Override
    public void unwatch() {
        if (key != null) {
            key.cancel();
        }
    }

    @Override
    public String remoteAddress() {
        try {
            InetSocketAddress remote = (InetSocketAddress) channel.getRemoteAddress();
            return remote.getAddress().getHostAddress() + ":" + remote.getPort();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @Override
    public void sendBuffer(int bytes) throws IOException {
        channel.setOption(java.net.StandardSocketOptions.SO_SNDBUF, bytes);
    }

    @Override
    public void shutdownOutput() throws IOException {
        channel.shutdownOutput();
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void setInterest(int op, boolean on) {
        if (key != null && key.isValid()) {
            int ops = key.interestOps();
            int wanted = on ? ops | op : ops & ~op;
            if (wanted != ops) {
                key.interestOps(wanted);
            }
        }
    }
}
