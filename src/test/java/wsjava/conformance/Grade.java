package wsjava.conformance;

/** Autobahn-style grades, strictest first. Only OK passes. */
enum Grade {
    /** The right outcome, as early as it could come. */
    OK,
    /** The right outcome, but late: after echoing frames that followed the bad one, or at the end of a message instead of at the bad byte. */
    NON_STRICT,
    /** Failed the connection, with the wrong close code. */
    WRONG_CODE,
    /** Anything else: wrong echo, bad data echoed, no close, no TCP close. */
    FAILED
}
