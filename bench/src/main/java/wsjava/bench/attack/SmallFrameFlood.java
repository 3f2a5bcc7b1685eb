package wsjava.bench.attack;

/**
 * An attack of many connections that each send one small frame over and over, as fast as they
 * can, for a while, and never read what comes back: the frame, the number of connections and the
 * checks are the subclass's.
 */
abstract class SmallFrameFlood extends Attack {

    private Flood flood;
    /** How many connections flood (known once launched). */
    int connections;

    /** The frame each connection repeats. */
    abstract byte[] frame();

    /** How many connections flood at this scale. */
    abstract int connections(Scale scale);

    static long millis(Scale scale) {
        return scale.millis(8_000, 3_000);
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        connections = connections(scale);
        byte[] block = RawWs.repeated(frame(), 2_000);
        flood = Flood.start(server.port, connections, false, block, millis(scale), 512 * MIB);
        flood.awaitSenders(millis(scale) + 5_000);
        flood.stopSending();
    }

    @Override
    long bytesSent() {
        return flood == null ? 0 : flood.bytesSent();
    }

    @Override
    public void close() {
        if (flood != null) {
            flood.close();
        }
    }
}
