package wsjava.bench.attack;

/** How an attack that could not run is reported: the exception, and where in the suite it was thrown. */
final class SetupFailure {

    private SetupFailure() {
    }

    /** "java.net.SocketTimeoutException: Read timed out, at RawWs.readHead(RawWs.java:97)". */
    static String describe(Throwable e) {
        for (StackTraceElement frame : e.getStackTrace()) {
            if (frame.getClassName().startsWith(SetupFailure.class.getPackageName() + ".")) {
                String type = frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1);
                return e + ", at " + type + "." + frame.getMethodName() + "(" + frame.getFileName() + ":" + frame.getLineNumber() + ")";
            }
        }
        return e.toString();
    }
}
