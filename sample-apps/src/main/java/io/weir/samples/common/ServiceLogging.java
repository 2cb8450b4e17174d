package io.weir.samples.common;

import ch.qos.logback.classic.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log levels for the long-running modes. A sample's own run keeps Weir's loggers at WARN so that
 * its results stay readable on the terminal; a service in a container has no results to print,
 * and its operator wants Weir's INFO lines (start-up, assignments, restores, the graceful stop).
 */
final class ServiceLogging {

    /** The system property that sets the level of Weir's loggers, as in docs/operating.md, "Logging". */
    static final String LEVEL_PROPERTY = "weir.log.level";

    private ServiceLogging() {}

    /** Sets the {@code io.weir} loggers to INFO, or to {@code -Dweir.log.level} when given. */
    static void useServiceLevels() {
        Logger weir = LoggerFactory.getLogger("io.weir");
        if (weir instanceof ch.qos.logback.classic.Logger logback) {
            logback.setLevel(Level.toLevel(System.getProperty(LEVEL_PROPERTY), Level.INFO));
        }
    }
}
