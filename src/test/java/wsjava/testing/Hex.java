package wsjava.testing;

/** Test helper: "81 85 37 fa" to bytes. */
public final class Hex {
    private Hex() {
    }

    public static byte[] bytes(String hex) {
        String s = hex.replace(" ", "");
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
