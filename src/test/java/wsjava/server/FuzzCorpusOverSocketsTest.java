package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import wsjava.cli.EchoListener;
import wsjava.testing.RawClient;

/**
 * The fuzzers' corpora (the inputs Jazzer kept for the frame stream and the request head) sent
 * through real sockets to a server on this run's transport, so that hostile bytes meet the
 * transport's reads and writes as well as the parsers: after each input the client ends its side,
 * and the server must answer and close within the close timeout. Afterwards the server still
 * serves, holds no socket but the bystander's, and the bystander never noticed. The build runs it on
 * NIO and again on FFM.
 */
class FuzzCorpusOverSocketsTest {

    private static final Path CORPORA = Path.of("src/test/resources/wsjava/protocol");

    private static List<Path> corpus(String dir) throws IOException {
        try (Stream<Path> files = Files.list(CORPORA.resolve(dir))) {
            return files.sorted().collect(Collectors.toList());
        }
    }

    @Test
    void everyCorpusInputEndsCleanlyAndDisturbsNoOne() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).closeTimeoutMillis(1_000), new EchoListener()).start();
        try (RawClient bystander = RawClient.open(server.port())) {
            List<Path> frames = corpus("FrameStreamFuzzTestInputs/frameStream");
            List<Path> heads = corpus("HttpRequestFuzzTestInputs/requestHead");
            assertTrue(frames.size() > 100 && heads.size() > 100, "the corpora are there: " + frames.size() + ", " + heads.size());
            int i = 0;
            for (Path input : frames) {
                replay(server.port(), true, Files.readAllBytes(input), input);
                if (++i % 40 == 0) {
                    echoes(bystander, "frames " + i);
                }
            }
            for (Path input : heads) {
                replay(server.port(), false, Files.readAllBytes(input), input);
                if (++i % 40 == 0) {
                    echoes(bystander, "heads " + i);
                }
            }
            echoes(bystander, "after all " + i);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (server.socketCount() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(1, server.socketCount(), "only the bystander's socket is left on " + server.transport());
            assertTrue(server.isRunning());
        } finally {
            server.stop();
        }
    }

    /** Sends {@code bytes} (after an upgrade when {@code upgraded}), ends the client's side, reads until the server closes. */
    private static void replay(int port, boolean upgraded, byte[] bytes, Path input) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            if (upgraded) {
                socket.getOutputStream().write(RawClient.request("/", "").getBytes(StandardCharsets.US_ASCII));
            }
            try {
                socket.getOutputStream().write(bytes);
                socket.shutdownOutput();
            } catch (IOException e) {
                return;     // the server closed already (it answered a bad head at once): what it should
            }
            InputStream in = socket.getInputStream();
            byte[] sink = new byte[64 * 1024];
            try {
                while (in.read(sink) >= 0) {
                    // the answer, then the server's close
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the server did not close within 5 s after " + input.getFileName(), e);
            } catch (IOException e) {
                // reset by the server: closed too
            }
        }
    }

    private static void echoes(RawClient bystander, String when) throws IOException {
        bystander.send(bystander.writer.text(when));
        assertEquals(when, new String(bystander.readFrame(10_000).payload(), StandardCharsets.UTF_8), "the bystander is served, " + when);
    }
}
