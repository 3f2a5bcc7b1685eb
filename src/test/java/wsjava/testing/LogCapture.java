package wsjava.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records what a logger receives while open. The server logs through System.Logger, which the JDK
 * routes to java.util.logging, so a handler on the logger of the same name sees every record.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    public final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger logger;

    public LogCapture(Class<?> loggingClass) {
        this.logger = Logger.getLogger(loggingClass.getName());
        logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
