package wsjava.link;

/** One event in an {@link EventQueue}, as WL will get it, and what it holds on the heap. */
final class QueuedEvent {

    /** The info of an event that has none ("Open" and "Reopened" have theirs). */
    static final String[] NO_INFO = {"", "", "", "", ""};

    final String type;
    final long connection;
    final long millis = System.currentTimeMillis();
    final int code;
    final String data;
    final String[] info;

    QueuedEvent(String type, long connection, int code, String data, String[] info) {
        this.type = type;
        this.connection = connection;
        this.code = code;
        this.data = data;
        this.info = info;
    }

    /** What the event holds on the heap: its object and queue node, its strings (Base64 one byte a char, text two at most), the info array. */
    long size() {
        long bytes = EventQueue.EVENT_BYTES + (type.equals("Binary") ? HeapCost.latin1String(data) : HeapCost.string(data));
        if (info != NO_INFO) {
            bytes += HeapCost.array(info.length);
            for (String s : info) {
                bytes += HeapCost.string(s);
            }
        }
        return bytes;
    }
}
