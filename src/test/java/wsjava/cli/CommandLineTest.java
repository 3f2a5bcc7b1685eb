package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.options.ServerOptions;

/** What serve says about options it does not know, and how it reads the ones it does. */
@Timeout(10)
class CommandLineTest {

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(Arrays.asList(args), ServerOptions.VALUE_OPTIONS, ServerOptions.FLAGS)).getMessage();
    }

    @Test
    void anUnknownOptionIsReportedWithTheNearestKnownOne() {
        assertEquals("unknown option --prot (did you mean --port?)", refusal("--prot", "8080"));
        assertEquals("unknown option --max-mesage (did you mean --max-message?)", refusal("--max-mesage", "1MiB"));
        assertEquals("unknown option --allow-orgin (did you mean --allow-origin?)", refusal("--allow-orgin", "http://x"));
    }

    @Test
    void anUnknownOptionWithNothingAfterItIsUnknownNotMissingAValue() {
        assertEquals("unknown option --bogus", refusal("--bogus"));
        assertEquals("unknown option --xyzzy-frobnicate", refusal("--port", "1", "--xyzzy-frobnicate"));
    }

    @Test
    void aKnownOptionWithoutItsValueSaysSo() {
        assertEquals("--port needs a value", refusal("--port"));
    }

    @Test
    void flagsValuesAndEqualsSigns() {
        CommandLine line = CommandLine.parse(List.of("--no-token", "--port=0", "--host", "::1", "extra"), ServerOptions.VALUE_OPTIONS,
                ServerOptions.FLAGS);
        assertEquals(List.of("no-token", "port", "host"), line.names);
        assertEquals(Arrays.asList(null, "0", "::1"), line.values);
        assertEquals(List.of("extra"), line.arguments);
        assertTrue(CommandLine.parse(List.of("--bogus", "-h"), ServerOptions.VALUE_OPTIONS, ServerOptions.FLAGS).help);
    }

    @Test
    void farOffNamesGetNoSuggestion() {
        assertEquals(null, NearestName.of("colour", List.of("port", "host")));
        assertEquals("port", NearestName.of("prot", List.of("port", "host")));
        assertEquals("compression-level", NearestName.of("compression-lvl", List.of("compression", "compression-level")));
    }
}
