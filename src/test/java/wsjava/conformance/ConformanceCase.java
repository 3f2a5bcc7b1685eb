package wsjava.conformance;

/** One named case of the suite: its group, what it checks, and how. */
final class ConformanceCase {

    /** A case that starts on an open connection. */
    interface Script {
        void run(CaseRun run) throws Exception;
    }

    /** A case that starts from a bare TCP port (handshake cases). */
    interface PortScript {
        void run(int port) throws Exception;
    }

    final String id;
    final String description;
    final Script script;
    final PortScript portScript;

    private ConformanceCase(String id, String description, Script script, PortScript portScript) {
        this.id = id;
        this.description = description;
        this.script = script;
        this.portScript = portScript;
    }

    static ConformanceCase open(String id, String description, Script script) {
        return new ConformanceCase(id, description, script, null);
    }

    static ConformanceCase raw(String id, String description, PortScript script) {
        return new ConformanceCase(id, description, null, script);
    }

    String group() {
        return id.substring(0, id.indexOf('.'));
    }
}
