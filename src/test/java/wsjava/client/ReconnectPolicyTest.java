package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Backoff, jitter, the attempt limit and which close codes reconnect. */
class ReconnectPolicyTest {

    @Test
    void delaysDoubleUpToTheMaximumAndAreJitteredIntoTheirUpperHalf() {
        ReconnectPolicy p = new ReconnectPolicy().initialDelayMillis(100).maxDelayMillis(1000);
        Random random = new Random(42);
        long[] bases = {100, 200, 400, 800, 1000, 1000, 1000};
        for (int attempt = 1; attempt <= bases.length; attempt++) {
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                long d = p.delayMillis(attempt, random);
                assertTrue(d >= bases[attempt - 1] / 2 && d <= bases[attempt - 1], "attempt " + attempt + ": " + d);
                seen.add(d);
            }
            assertTrue(seen.size() > 10, "jitter spreads the delays of attempt " + attempt + ": " + seen);
        }
        assertTrue(p.delayMillis(10_000, random) <= 1000, "a huge attempt number neither overflows nor passes the maximum");
    }

    @Test
    void attemptsAreLimitedOnlyWhenAsked() {
        assertTrue(new ReconnectPolicy().mayTry(1_000_000), "0 attempts: unlimited (the default)");
        ReconnectPolicy three = new ReconnectPolicy().maxAttempts(3);
        assertTrue(three.mayTry(3));
        assertFalse(three.mayTry(4));
    }

    @Test
    void everyCodeButNormalReconnectsUnlessTheCodesAreNamed() {
        ReconnectPolicy p = new ReconnectPolicy();
        assertFalse(p.reconnectsAfter(1000));
        for (int code : new int[] {1001, 1006, 1011, 1012, 4000}) {
            assertTrue(p.reconnectsAfter(code), "code " + code);
        }
        ReconnectPolicy named = new ReconnectPolicy().abnormalCodes(Set.of(1006, 1012));
        assertTrue(named.reconnectsAfter(1006));
        assertFalse(named.reconnectsAfter(1001));
        assertEquals(Set.of(1006, 1012), named.abnormalCodes());
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReconnectPolicy().initialDelayMillis(0));
        assertThrows(IllegalArgumentException.class, () -> new ReconnectPolicy().initialDelayMillis(500).maxDelayMillis(100));
        assertThrows(IllegalArgumentException.class, () -> new ReconnectPolicy().maxAttempts(-1));
        assertEquals(60_000, new ReconnectPolicy().initialDelayMillis(60_000).maxDelayMillis(), "the maximum follows a larger first delay");
    }

    @Test
    void aCopyKeepsEveryField() throws Exception {
        // Every field is set to a value no default has, by reflection, so a field added later and
        // forgotten by copy() fails here instead of being dropped silently.
        ReconnectPolicy original = new ReconnectPolicy();
        int n = 0;
        for (java.lang.reflect.Field f : ReconnectPolicy.class.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            n++;
            Class<?> type = f.getType();
            if (type == long.class) {
                f.setLong(original, 7_000 + n);
            } else if (type == int.class) {
                f.setInt(original, 70 + n);
            } else if (type == Set.class) {
                f.set(original, new java.util.TreeSet<>(Set.of(4000 + n)));
            } else if (type == java.util.function.Consumer.class) {
                f.set(original, (java.util.function.Consumer<Object>) c -> { });
            } else {
                throw new AssertionError("field " + f.getName() + " of type " + type + ": teach this test a value for it");
            }
        }
        ReconnectPolicy copy = original.copy();
        for (java.lang.reflect.Field f : ReconnectPolicy.class.getDeclaredFields()) {
            if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                f.setAccessible(true);
                assertEquals(f.get(original), f.get(copy), "copy() dropped " + f.getName());
            }
        }
        assertTrue(n >= 6, "the test saw the policy's fields");
    }
}
