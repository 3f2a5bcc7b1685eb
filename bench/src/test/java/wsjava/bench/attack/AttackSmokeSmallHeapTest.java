package wsjava.bench.attack;

/** Every attack at smoke size against a server under -Xmx128m. */
class AttackSmokeSmallHeapTest extends AttackSmoke {

    @Override
    String heap() {
        return "128m";
    }
}
