package wsjava.wl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import wsjava.testing.ExternalTools;

/**
 * The J/Link contract: every Java class and member the WL sources (paclet, scripts, benchmarks,
 * notebook cells) call exists in the built classes with a signature J/Link can pass.
 */
class JLinkContractTest {

    private static List<JLinkCalls> sources() {
        List<JLinkCalls> all = new ArrayList<>();
        for (Path file : WlSources.files()) {
            String name = ExternalTools.PROJECT.relativize(file).toString();
            String text = WlSources.read(file);
            if (name.endsWith(".wln")) {
                List<String> cells = WlSources.notebookCode(text);
                for (int i = 0; i < cells.size(); i++) {
                    all.add(new JLinkCalls(name + "#cell" + (i + 1), cells.get(i)));
                }
            } else {
                all.add(new JLinkCalls(name, text));
            }
        }
        return all;
    }

    @Test
    void everyJLinkUseMatchesTheBuiltClasses() {
        List<String> problems = new ArrayList<>();
        List<JLinkCalls.Call> staticCalls = new ArrayList<>();
        List<JLinkCalls> sources = sources();
        List<JLinkCalls.Call> everything = new ArrayList<>();
        sources.forEach(s -> everything.addAll(s.find()));
        java.util.Map<String, Class<?>> loaded = JLinkContract.loadedClasses(everything, problems);
        assertTrue(loaded.containsKey("WSJavaLink"), "the paclet must LoadJavaClass the facade");
        for (JLinkCalls source : sources) {
            List<JLinkCalls.Call> calls = source.find();
            problems.addAll(JLinkContract.check(source, calls, loaded));
            calls.stream().filter(c -> c.kind == JLinkCalls.Kind.STATIC && c.owner.equals("WSJavaLink")).forEach(staticCalls::add);
        }
        System.out.println("J/Link surface used by the WL code (" + staticCalls.size() + " static calls):");
        staticCalls.stream().map(c -> "  WSJavaLink`" + c.method + "/" + c.args.size()).distinct().sorted().forEach(System.out::println);
        if (!problems.isEmpty()) {
            fail("J/Link contract violations:\n  " + String.join("\n  ", problems));
        }
        assertTrue(staticCalls.size() >= 20, "expected the paclet's Java calls to be found, got " + staticCalls.size());
    }

    @Test
    void theCheckerCatchesBadCalls() {
        String wl = "LoadJavaClass[\"wsjava.link.WSJavaLink\"];\n"
                + "a = WSJavaLink`noSuchMethod[1];\n"
                + "b = WSJavaLink`acceptKey[1, 2];\n"
                + "c = WSJavaLink`maskBase64[\"not a number\", \"x\"];\n"
                + "d = WSJavaLink`isRunning[True];\n"
                + "(* WSJavaLink`commentedOut[1] is ignored *) e = \"WSJavaLink`inAString[1]\";\n"
                + "LoadJavaClass[\"wsjava.link.Missing\"];\n"
                + "f = JavaNew[\"wsjava.link.EventQueue\", 1, 2];\n"
                + "g = obj@poll[1, 2, 3];\n";
        JLinkCalls calls = new JLinkCalls("synthetic.wl", wl);
        List<String> problems = new ArrayList<>();
        java.util.Map<String, Class<?>> loaded = JLinkContract.loadedClasses(calls.find(), problems);
        problems.addAll(JLinkContract.check(calls, calls.find(), loaded));
        String all = problems.stream().collect(Collectors.joining("\n"));
        assertTrue(all.contains("noSuchMethod"), all);
        assertTrue(all.contains("acceptKey takes 1 arguments, WL passes 2"), all);
        assertTrue(all.contains("argument 1 (\"not a number\") is a WL STRING but the parameter is long"), all);
        assertTrue(all.contains("isRunning"), all);
        assertTrue(all.contains("wsjava.link.Missing does not exist"), all);
        assertTrue(all.contains("EventQueue"), all);
        assertTrue(all.contains("obj@poll/3: instance call on a receiver of unknown class"), all);
        assertTrue(!all.contains("commentedOut") && !all.contains("inAString"), all);
        assertEquals(7, problems.size(), all);
    }

    @Test
    void facadeHasNoOverloadsAndOnlyPassableTypes() throws Exception {
        Class<?> facade = Class.forName("wsjava.link.WSJavaLink");
        List<String> problems = new ArrayList<>();
        java.util.Map<String, Integer> names = new java.util.HashMap<>();
        for (java.lang.reflect.Method m : facade.getDeclaredMethods()) {
            if (!java.lang.reflect.Modifier.isPublic(m.getModifiers())) {
                continue;
            }
            names.merge(m.getName(), 1, Integer::sum);
            if (!java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                problems.add(m.getName() + " is not static");
            }
            if (!JLinkContract.PASSABLE.contains(m.getReturnType())) {
                problems.add(m.getName() + " returns " + m.getReturnType());
            }
            for (Class<?> p : m.getParameterTypes()) {
                if (!JLinkContract.PASSABLE.contains(p)) {
                    problems.add(m.getName() + " takes " + p);
                }
            }
        }
        names.forEach((n, count) -> {
            if (count > 1) {
                problems.add(n + " is overloaded");
            }
        });
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }
}
