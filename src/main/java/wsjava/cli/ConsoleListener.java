package wsjava.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/** What {@code ./wsjava connect} prints of a connection: each message received, then how it closed. */
final class ConsoleListener implements WebSocketListener {

    private final PrintStream out;
    private final PrintStream err;
    private final boolean interactive;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile int closeCode;

    ConsoleListener(PrintStream out, PrintStream err, boolean interactive) {
        this.out = out;
        this.err = err;
        this.interactive = interactive;
    }

    @Override
    public void onText(WebSocketConnection connection, String text) {
        out.println(interactive ? "< " + text : text);
        out.flush();
    }

    @Override
    public void onBinary(WebSocketConnection connection, byte[] data) {
        out.println((interactive ? "< " : "") + "[binary, " + data.length + " bytes]");
        out.flush();
    }

    @Override
    public void onError(WebSocketConnection connection, Throwable error) {
        err.println("connect: " + error.getMessage());
    }

    @Override
    public void onClose(WebSocketConnection connection, int code, String reason) {
        closeCode = code;
        if (interactive || !isNormal(code)) {
            err.println("connection closed: " + code + (reason.isEmpty() ? "" : " " + reason));
        }
        closed.countDown();
    }

    /**
     * Waits until the connection has closed: the client reports every close, a close we began
     * within its close timeout. True when it closed normally.
     */
    boolean awaitClose() throws InterruptedException {
        closed.await();
        return isNormal(closeCode);
    }

    /** Whether the connection closes within {@code millis} (the server closed it first). */
    boolean closedWithin(long millis) throws InterruptedException {
        return closed.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    private static boolean isNormal(int code) {
        return code == 1000 || code == 1001;
    }
}
