package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A connection's bytes as they are, straight to and from the socket. */
final class PlainTransport implements Transport {

    private final SocketChannel channel;

    PlainTransport(SocketChannel channel) {
        this.channel = channel;
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
    public boolean flushPending() {
        return true;
    }

    @Override
    public boolean hasPendingOutput() {
        return false;
    }

    @Override
    public boolean writesThrough() {
        return true;
    }

    @Override
    public boolean ready() {
        return true;
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
}
