package wsjava;

/** The release, as the launcher and the paclet report it. */
public final class Version {

    public static final String VERSION = "0.1.0";

    private Version() {
    }
}
