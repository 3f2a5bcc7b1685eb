package wsjava.cli;

import java.util.Collection;

/** The known name a mistyped one was most likely meant to be: fewest edits, or the one it begins. */
final class NearestName {

    private NearestName() {
    }

    /** The nearest of {@code known} to {@code typed}, or null when none is close enough to suggest. */
    static String of(String typed, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : known) {
            int d = name.startsWith(typed) ? 1 : distance(typed, name);
            if (d < bestDistance) {
                best = name;
                bestDistance = d;
            }
        }
        // More than a third of the name changed is a different word, not a typo.
        return best != null && bestDistance <= Math.max(2, typed.length() / 3) ? best : null;
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
