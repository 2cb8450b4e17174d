package io.weir.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.classic.util.DefaultJoranConfigurator;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.net.URL;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Weir's logging when the application brings logback but no configuration of its own, so that a
 * first application logs sensibly without a {@code logback.xml}. Found by logback through
 * {@code META-INF/services/ch.qos.logback.classic.spi.Configurator}; without logback on the
 * class path nothing here is loaded.
 *
 * <p>The defaults: one console appender on standard output, lines like
 * {@code 2026-01-01T12:00:00.000+01:00 INFO  [main] io.weir.WeirApp - message}; root and
 * {@code io.weir} at INFO; Kafka ({@code org.apache.kafka}, {@code kafka},
 * {@code state.change.logger}) at WARN, because its clients log their whole configuration and
 * every rebalance step at INFO; a {@link RepeatedMessageFilter} so a Kafka client retrying in a
 * loop cannot flood the log. Standard output, not standard error: container runtimes collect both,
 * but log pipelines commonly treat every line on standard error as an error whatever its level.
 *
 * <p>How to change it, from the most to the least control: a {@code logback.xml} (or
 * {@code logback-test.xml}) on the class path, or {@code -Dlogback.configurationFile=path}; any of
 * them replaces these defaults entirely. Or keep the defaults and set {@code -Dweir.log.level}
 * (e.g. {@code DEBUG}) for the {@code io.weir} loggers.
 *
 * <p>Guarantees: a configuration file that logback would read always wins (this configurator then
 * changes nothing and lets logback read it); otherwise logback's own fallback
 * ({@code BasicConfigurator}, DEBUG to stdout) never runs, so there is exactly one appender.
 *
 * <p>Rank: logback 1.5 runs every configurator found as a service, highest rank first, and only
 * then its built-in ones (the file reader {@code DefaultJoranConfigurator}, then
 * {@code BasicConfigurator}), unless one of them returns {@code DO_NOT_INVOKE_NEXT_IF_ANY}. This one
 * ranks {@link ConfiguratorRank#NOMINAL}, the file reader's own rank: below any custom
 * configurator (their default rank is 20), so an application's own configurator runs first. Since
 * the file reader is not a service and would run after this one, this configurator looks for the
 * files itself, with the file reader's own search.
 */
@ConfiguratorRank(ConfiguratorRank.NOMINAL)
public final class DefaultLogbackConfigurator extends ContextAwareBase implements Configurator {

    /** The system property that sets the level of the {@code io.weir} loggers under these defaults. */
    public static final String LEVEL_PROPERTY = "weir.log.level";

    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{36} - %msg%n";

    /** Loggers whose INFO is detail for Kafka's developers, not for a Weir operator. */
    private static final Map<String, Level> LEVELS = Map.of(
            "org.apache.kafka", Level.WARN,
            "kafka", Level.WARN,
            "state.change.logger", Level.WARN);

    private final Function<LoggerContext, Optional<URL>> userConfiguration;
    private final UnaryOperator<String> systemProperties;

    /** Used by logback's service loader. */
    public DefaultLogbackConfigurator() {
        this(DefaultLogbackConfigurator::findUserConfiguration, System::getProperty);
    }

    DefaultLogbackConfigurator(
            Function<LoggerContext, Optional<URL>> userConfiguration, UnaryOperator<String> systemProperties) {
        this.userConfiguration = userConfiguration;
        this.systemProperties = systemProperties;
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (systemProperties.apply(ContextInitializer.CONFIG_FILE_PROPERTY) != null) {
            // Even when the file does not exist: logback then reports that, which is what the
            // user who set the property needs to see, rather than silent defaults.
            addInfo("-D" + ContextInitializer.CONFIG_FILE_PROPERTY + " is set; Weir's default logging steps aside");
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        Optional<URL> file = userConfiguration.apply(context);
        if (file.isPresent()) {
            addInfo("Found " + file.get() + "; Weir's default logging steps aside");
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        applyDefaults(context);
        addInfo("No logback configuration file found; applied Weir's default logging");
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private void applyDefaults(LoggerContext context) {
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(consoleAppender(context));
        LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
        context.getLogger("io.weir").setLevel(weirLevel());

        // First: lines of healthy transactions are dropped before they count as repeats.
        ExpectedKafkaNoise noise = new ExpectedKafkaNoise();
        noise.setContext(context);
        noise.start();
        context.addTurboFilter(noise);
        RepeatedMessageFilter filter = new RepeatedMessageFilter();
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
    }

    private ConsoleAppender<ILoggingEvent> consoleAppender(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("CONSOLE");
        console.setTarget("System.out");
        console.setEncoder(encoder);
        console.start();
        return console;
    }

    private Level weirLevel() {
        String value = systemProperties.apply(LEVEL_PROPERTY);
        if (value == null || value.isBlank()) {
            return Level.INFO;
        }
        Level level = Level.toLevel(value.strip(), null);
        if (level == null) {
            // A status warning: logback prints it on start-up, before any log line.
            addWarn("-D" + LEVEL_PROPERTY + "=" + value + " is not one of TRACE, DEBUG, INFO, WARN, ERROR, OFF;"
                    + " using INFO");
            return Level.INFO;
        }
        return level;
    }

    /** The file logback's own file reader would read: logback-test.xml, then logback.xml. */
    private static Optional<URL> findUserConfiguration(LoggerContext context) {
        DefaultJoranConfigurator reader = new DefaultJoranConfigurator();
        reader.setContext(context);
        return Optional.ofNullable(reader.findURLOfDefaultConfigurationFile(false));
    }
}
