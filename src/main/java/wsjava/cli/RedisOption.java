package wsjava.cli;

import java.lang.reflect.InvocationTargetException;
import wsjava.server.WebSocketServer;

/**
 * {@code serve --redis URL}: the Redis module is found by name at run time, so the library jar
 * depends on nothing and its jars (and Jedis's) load only when the option is given; the launcher
 * puts them on the class path then.
 */
final class RedisOption {

    static final String ENTRY = "wsjava.redis.RedisUrl";

    private RedisOption() {
    }

    /** Starts the fan-out of {@code server}'s topics through the Redis at {@code url}; IllegalArgumentException says why not. */
    static AutoCloseable start(WebSocketServer server, String url) {
        try {
            return (AutoCloseable) Class.forName(ENTRY).getMethod("start", WebSocketServer.class, String.class).invoke(null, server, url);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("--redis needs the Redis module on the class path (./wsjava serve --redis adds it)");
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("--redis " + url + ": " + e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the Redis module has no " + ENTRY + ".start(WebSocketServer, String)", e);
        }
    }
}
