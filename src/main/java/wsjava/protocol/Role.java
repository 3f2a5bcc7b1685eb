package wsjava.protocol;

/** Which end of the connection we are: it decides who masks (RFC 6455 section 5.1). */
public enum Role {
    /** Receives masked frames, sends unmasked ones. */
    SERVER,
    /** Receives unmasked frames, sends masked ones. */
    CLIENT;

    /** Whether frames arriving at this end must carry a mask. */
    public boolean expectsMaskedFrames() {
        return this == SERVER;
    }
}
