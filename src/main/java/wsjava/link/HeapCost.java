package wsjava.link;

/**
 * What objects cost on a 64-bit JVM's heap (compressed references, 8-byte alignment), at most:
 * enough to count queued events at their real size rather than at their character count.
 */
final class HeapCost {

    private HeapCost() {
    }

    /** A String with its array, counted at two bytes a character (a Latin-1 string takes half; never more). */
    static long string(String s) {
        return 24 + align(16 + 2L * s.length());
    }

    /** A String of Latin-1 characters only (Base64, say): one byte a character. */
    static long latin1String(String s) {
        return 24 + align(16 + (long) s.length());
    }

    /** An array of {@code length} references. */
    static long array(int length) {
        return align(16 + 4L * length);
    }

    private static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }
}
