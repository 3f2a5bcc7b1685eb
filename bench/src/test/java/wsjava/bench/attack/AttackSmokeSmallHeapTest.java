package wsjava.bench.attack;

/** Every attack at smoke size against a server under -Xmx128m. */
class AttackSmokeSmallHeapTest extends AttackSmoke {

    @Override
    String heap() {
        return "128m";
    }

    /** On NIO: the heap J/Link's Java 11 to 21 gives a kernel's server is small. */
    @Override
    String transport() {
        return "nio";
    }
}
