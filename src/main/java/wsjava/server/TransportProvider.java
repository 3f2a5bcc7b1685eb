package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;

/**
 * What a transport gives a server: its listening socket and its I/O loops. NIO's is here; FFM's is
 * in the jar's part for Java 22 ({@code META-INF/versions/22}), found by name, so that this base
 * stays Java 11 and a JVM older than 22 never loads it.
 */
interface TransportProvider {

    /** "nio" or "ffm": what {@link WebSocketServer#transport()} says. */
    String name();

    ListeningSocket listen(String host, int port, int backlog) throws IOException;

    IoLoop loop(WebSocketServer server, ServerLifecycle lifecycle, int index) throws IOException;

    TransportProvider NIO = new TransportProvider() {
        @Override
        public String name() {
            return "nio";
        }

        @Override
        public ListeningSocket listen(String host, int port, int backlog) throws IOException {
            return new NioListener(host, port, backlog);
        }

        @Override
        public IoLoop loop(WebSocketServer server, ServerLifecycle lifecycle, int index) throws IOException {
            return new SelectorLoop(server, lifecycle, index);
        }
    };

    /**
     * The provider for {@code wanted}: FFM when asked (or AUTO) and it starts here, NIO otherwise,
     * with one log line when FFM was asked for, or expected (AUTO on Java 22 or later). AUTO takes FFM
     * only where the JVM grants native access, so that choosing it never prints the JDK's warning.
     */
    static TransportProvider choose(IoTransport wanted) {
        IoTransport choice = wanted == IoTransport.AUTO ? IoTransport.fromProperty() : wanted;
        if (choice == IoTransport.NIO) {
            return NIO;
        }
        boolean canHaveFfm = Runtime.version().feature() >= 22;
        if (!canHaveFfm && choice == IoTransport.AUTO) {
            return NIO;         // Java 11 to 21 (J/Link's): NIO is what there is, nothing to say
        }
        String why;
        try {
            if (!canHaveFfm) {
                throw new UnsupportedOperationException("it needs Java 22 or later, this is " + Runtime.version().feature());
            }
            return (TransportProvider) Class.forName("wsjava.server.FfmProvider").getDeclaredConstructor(boolean.class)
                    .newInstance(choice == IoTransport.AUTO);
        } catch (java.lang.reflect.InvocationTargetException e) {
            why = String.valueOf(e.getCause().getMessage());
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            why = e.getMessage();
        }
        ServerLog.log(choice == IoTransport.AUTO ? Level.INFO : Level.WARNING, "the FFM transport could not start (" + why + "); running on NIO", null);
        return NIO;
    }
}
