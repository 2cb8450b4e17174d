package io.weir.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class DefaultLogbackConfiguratorTest {

    private final LoggerContext context = new LoggerContext();

    private static DefaultLogbackConfigurator configurator(Optional<URL> userFile, Map<String, String> properties) {
        return new DefaultLogbackConfigurator(c -> userFile, properties::get);
    }

    private ExecutionStatus configure(DefaultLogbackConfigurator configurator) {
        configurator.setContext(context);
        return configurator.configure(context);
    }

    private List<Appender<ILoggingEvent>> rootAppenders() {
        List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
        context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().forEachRemaining(appenders::add);
        return appenders;
    }

    @Test
    void withoutAConfigurationFileAppliesTheDefaultsAndStopsLogbacksFallback() {
        ExecutionStatus status = configure(configurator(Optional.empty(), Map.of()));

        assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertThat(rootAppenders()).singleElement().isInstanceOfSatisfying(ConsoleAppender.class, console -> {
            assertThat(console.getTarget()).isEqualTo("System.out");
            assertThat(console.isStarted()).isTrue();
        });
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("io.weir.WeirApp").getEffectiveLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("org.apache.kafka.clients.consumer.ConsumerConfig")
                        .getEffectiveLevel())
                .isEqualTo(Level.WARN);
        assertThat(context.getLogger("kafka.server.KafkaBroker").getEffectiveLevel())
                .isEqualTo(Level.WARN);
        assertThat(context.getTurboFilterList()).hasSize(2).allMatch(f -> f.isStarted());
        assertThat(context.getTurboFilterList().get(0))
                .as("expected noise is dropped before it counts as a repeat")
                .isInstanceOf(ExpectedKafkaNoise.class);
        assertThat(context.getTurboFilterList().get(1)).isInstanceOf(RepeatedMessageFilter.class);
    }

    @Test
    void aConfigurationFileWinsAndIsLeftToLogback() throws Exception {
        ExecutionStatus status = configure(configurator(Optional.of(new URL("file:/app/logback.xml")), Map.of()));

        assertThat(status).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(rootAppenders()).isEmpty();
        assertThat(context.getTurboFilterList()).isEmpty();
    }

    @Test
    void theConfigurationFilePropertyWinsEvenWhenTheFileIsMissing() {
        ExecutionStatus status =
                configure(configurator(Optional.empty(), Map.of("logback.configurationFile", "/nowhere/logback.xml")));

        assertThat(status).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(rootAppenders()).isEmpty();
    }

    @Test
    void weirLogLevelSetsTheWeirLoggersOnly() {
        configure(configurator(Optional.empty(), Map.of("weir.log.level", "debug")));

        assertThat(context.getLogger("io.weir.internal.thread.StreamThread").getEffectiveLevel())
                .isEqualTo(Level.DEBUG);
        assertThat(context.getLogger("com.example.MyService").getEffectiveLevel())
                .isEqualTo(Level.INFO);
    }

    @Test
    void anInvalidWeirLogLevelFallsBackToInfoWithAStatusWarning() {
        configure(configurator(Optional.empty(), Map.of("weir.log.level", "chatty")));

        assertThat(context.getLogger("io.weir").getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getStatusManager().getCopyOfStatusList())
                .anySatisfy(s -> assertThat(s.getMessage()).contains("weir.log.level=chatty"));
    }

    @Test
    void theRealSearchFindsThisModulesLogbackTestXml() {
        // The framework's tests bring logback-test.xml, as an application may: the defaults step aside.
        DefaultLogbackConfigurator real = new DefaultLogbackConfigurator();

        assertThat(configure(real)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(rootAppenders()).isEmpty();
    }

    @Test
    void isRegisteredForLogbacksServiceLoader() {
        assertThat(ServiceLoader.load(Configurator.class).stream().map(ServiceLoader.Provider::type))
                .contains(DefaultLogbackConfigurator.class);
    }
}
