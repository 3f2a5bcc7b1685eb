package wsjava.wl;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks J/Link uses against the compiled classes by reflection: each class exists and is public;
 * each method exists, is public (static for static calls), is not overloaded, takes as many
 * arguments as the WL code passes, has parameter and return types J/Link converts, and accepts
 * what the WL code visibly passes (a string literal to a String, True/False to a boolean...).
 */
final class JLinkContract {

    enum WlKind { STRING, INTEGER, REAL, BOOLEAN, LIST, UNKNOWN }

    /** Types J/Link passes between WL and Java without JavaObject references. */
    static final Set<Class<?>> PASSABLE = Set.of(String.class, int.class, long.class, short.class, byte.class,
            double.class, float.class, boolean.class, String[].class, int[].class, long[].class, byte[].class,
            double[].class, boolean[].class, void.class);

    /** WL helpers whose result kind the checker knows. */
    static final Map<String, WlKind> HELPERS = Map.of("toJava", WlKind.STRING, "toJavaIntegers", WlKind.LIST,
            "maskKeyNumber", WlKind.INTEGER, "Round", WlKind.INTEGER, "FromDigits", WlKind.INTEGER,
            "Length", WlKind.INTEGER, "ToString", WlKind.STRING, "StringJoin", WlKind.STRING);

    private JLinkContract() {
    }

    /**
     * The classes LoadJavaClass makes callable, by short name (J/Link's context for their statics).
     * The paclet loads its class once (Java.wl) for every file and script that uses it, so this is
     * collected over all sources first.
     */
    static Map<String, Class<?>> loadedClasses(List<JLinkCalls.Call> allCalls, List<String> problems) {
        Map<String, Class<?>> loaded = new HashMap<>();
        for (JLinkCalls.Call c : allCalls) {
            if (c.kind == JLinkCalls.Kind.LOAD_CLASS) {
                Class<?> cls = publicClass(c.owner, c, problems);
                if (cls != null) {
                    loaded.put(cls.getSimpleName(), cls);
                }
            }
        }
        return loaded;
    }

    /** Every problem found in one file's calls; empty when they all check out. */
    static List<String> check(JLinkCalls file, List<JLinkCalls.Call> calls, Map<String, Class<?>> loaded) {
        List<String> problems = new ArrayList<>();
        for (JLinkCalls.Call c : calls) {
            switch (c.kind) {
                case JAVA_NEW:
                    checkConstructor(c, problems);
                    break;
                case STATIC:
                    if (!isJLinkContext(c.owner)) {
                        Class<?> cls = loaded.get(c.owner);
                        if (cls == null) {
                            problems.add(c + ": no LoadJavaClass for " + c.owner + " anywhere in the WL sources");
                        } else {
                            checkMethod(c, cls, true, problems);
                        }
                    }
                    break;
                case INSTANCE:
                    if (file.boundToJavaException(c.owner)) {
                        checkMethod(c, Throwable.class, false, problems);
                    } else if (isJavaMethodName(c.method, loaded.values())) {
                        problems.add(c + ": instance call on a receiver of unknown class");
                    }
                    break;
                default:
                    break;
            }
        }
        return problems;
    }

    /** Contexts like JLink` or System` are WL's, not loaded classes. */
    private static boolean isJLinkContext(String owner) {
        return owner.equals("JLink") || owner.equals("System") || owner.equals("BoxForm") || owner.equals("Developer")
                || owner.equals("Internal") || owner.equals("WSJava") || owner.equals("Private");
    }

    private static boolean isJavaMethodName(String name, java.util.Collection<Class<?>> classes) {
        for (Class<?> c : classes) {
            for (Method m : c.getMethods()) {
                if (m.getName().equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Class<?> publicClass(String name, JLinkCalls.Call c, List<String> problems) {
        try {
            Class<?> cls = Class.forName(name);
            if (!Modifier.isPublic(cls.getModifiers())) {
                problems.add(c + ": class " + name + " is not public");
                return null;
            }
            return cls;
        } catch (ClassNotFoundException e) {
            problems.add(c + ": class " + name + " does not exist");
            return null;
        }
    }

    private static void checkConstructor(JLinkCalls.Call c, List<String> problems) {
        Class<?> cls = publicClass(c.owner, c, problems);
        if (cls == null) {
            return;
        }
        List<Constructor<?>> matching = Arrays.stream(cls.getConstructors())
                .filter(k -> k.getParameterCount() == c.args.size()).collect(Collectors.toList());
        if (matching.size() != 1) {
            problems.add(c + ": " + matching.size() + " public constructors take " + c.args.size() + " arguments (need exactly 1)");
            return;
        }
        checkParameters(c, matching.get(0).getParameterTypes(), problems);
    }

    private static void checkMethod(JLinkCalls.Call c, Class<?> cls, boolean isStatic, List<String> problems) {
        List<Method> named = Arrays.stream(cls.getMethods()).filter(m -> m.getName().equals(c.method))
                .filter(m -> Modifier.isStatic(m.getModifiers()) == isStatic).collect(Collectors.toList());
        if (named.isEmpty()) {
            problems.add(c + ": no public " + (isStatic ? "static " : "") + "method " + cls.getName() + "." + c.method);
            return;
        }
        if (named.size() > 1 && isStatic) {
            problems.add(c + ": " + cls.getName() + "." + c.method + " is overloaded; J/Link may not tell the overloads apart");
            return;
        }
        Method m = named.stream().filter(x -> x.getParameterCount() == c.args.size()).findFirst().orElse(null);
        if (m == null) {
            problems.add(c + ": " + cls.getName() + "." + c.method + " takes " + named.get(0).getParameterCount()
                    + " arguments, WL passes " + c.args.size());
            return;
        }
        if (!PASSABLE.contains(m.getReturnType())) {
            problems.add(c + ": returns " + m.getReturnType().getName() + ", which J/Link would hand WL as a JavaObject");
        }
        checkParameters(c, m.getParameterTypes(), problems);
    }

    private static void checkParameters(JLinkCalls.Call c, Class<?>[] types, List<String> problems) {
        for (int i = 0; i < types.length; i++) {
            if (!PASSABLE.contains(types[i])) {
                problems.add(c + ": parameter " + (i + 1) + " is " + types[i].getName() + ", which WL values cannot become");
                continue;
            }
            WlKind kind = kindOf(c.args.get(i));
            if (!accepts(types[i], kind)) {
                problems.add(c + ": argument " + (i + 1) + " (" + c.args.get(i) + ") is a WL " + kind
                        + " but the parameter is " + types[i].getSimpleName());
            }
        }
    }

    static WlKind kindOf(String arg) {
        String a = arg.trim();
        if (a.startsWith("\"") && a.endsWith("\"")) {
            return WlKind.STRING;
        }
        if (a.matches("-?\\d+") || a.matches("\\d+\\^\\^[0-9a-zA-Z]+")) {
            return WlKind.INTEGER;
        }
        if (a.matches("-?\\d+\\.\\d*")) {
            return WlKind.REAL;
        }
        if (a.equals("True") || a.equals("False") || a.contains("===") || a.contains("=!=")) {
            return WlKind.BOOLEAN;
        }
        if (a.startsWith("{")) {
            return WlKind.LIST;
        }
        int bracket = a.indexOf('[');
        if (bracket > 0 && a.endsWith("]")) {
            WlKind known = HELPERS.get(a.substring(0, bracket));
            if (known != null) {
                return known;
            }
        }
        return WlKind.UNKNOWN;
    }

    static boolean accepts(Class<?> type, WlKind kind) {
        switch (kind) {
            case STRING: return type == String.class;
            case INTEGER: return type == int.class || type == long.class || type == short.class || type == byte.class
                    || type == double.class || type == float.class;
            case REAL: return type == double.class || type == float.class;
            case BOOLEAN: return type == boolean.class;
            case LIST: return type.isArray();
            default: return true;
        }
    }
}
