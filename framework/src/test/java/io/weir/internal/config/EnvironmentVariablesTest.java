package io.weir.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class EnvironmentVariablesTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger(EnvironmentVariables.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void capture() {
        logged.start();
        logger.addAppender(logged);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logged);
    }

    @Test
    void mapsWeirKafkaAndPrefixedKafkaSettings() {
        EnvironmentVariables.Mapping m = EnvironmentVariables.map(Map.of(
                "WEIR_BOOTSTRAP_SERVERS", "b:1",
                "WEIR_PRODUCER_LINGER_MS", "10",
                "WEIR_RESTORE_CONSUMER_MAX_POLL_RECORDS", "500",
                "WEIR_SECURITY_PROTOCOL", "SSL",
                "WEIR_HTTP_PORT", "9090",
                "PATH", "/bin"));
        assertThat(m.settings())
                .containsOnly(
                        Map.entry("bootstrap.servers", "b:1"),
                        Map.entry("producer.linger.ms", "10"),
                        Map.entry("restore.consumer.max.poll.records", "500"),
                        Map.entry("security.protocol", "SSL"),
                        Map.entry("http.port", "9090"));
        assertThat(m.ignored()).isEmpty();
        assertThat(logged.list).isEmpty();
    }

    @Test
    void ignoresServiceVariablesWithOneWarningListingTheirNames() {
        EnvironmentVariables.Mapping m = EnvironmentVariables.map(Map.of(
                "WEIR_X_SERVICE_HOST", "10.0.0.1",
                "WEIR_X_SERVICE_PORT", "8080",
                "WEIR_X_PORT", "tcp://10.0.0.1:8080",
                "WEIR_X_PORT_8080_TCP_ADDR", "10.0.0.1",
                "WEIR_HTTP_PORT", "tcp://10.0.0.2:8080",
                "WEIR_HTTP_SERVICE_HOST", "10.0.0.2",
                "WEIR_POLL_MS", "50"));
        assertThat(m.settings()).containsOnly(Map.entry("poll.ms", "50"));
        assertThat(m.ignored())
                .containsExactly(
                        "WEIR_HTTP_PORT",
                        "WEIR_HTTP_SERVICE_HOST",
                        "WEIR_X_PORT",
                        "WEIR_X_PORT_8080_TCP_ADDR",
                        "WEIR_X_SERVICE_HOST",
                        "WEIR_X_SERVICE_PORT");
        assertThat(logged.list).hasSize(1);
        ILoggingEvent warning = logged.list.get(0);
        assertThat(warning.getLevel()).isEqualTo(Level.WARN);
        assertThat(warning.getFormattedMessage())
                .contains("WEIR_HTTP_PORT, WEIR_HTTP_SERVICE_HOST, WEIR_X_PORT")
                .doesNotContain("10.0.0.1");
    }

    @Test
    void serviceLinksAreRecognisedForEveryProtocol() {
        for (String link : List.of("tcp://10.0.0.1:80", "UDP://10.0.0.1:53", "sctp://10.0.0.1:9")) {
            assertThat(EnvironmentVariables.map(Map.of("WEIR_HTTP_PORT", link)).settings())
                    .isEmpty();
        }
    }

    @Test
    void onlyTheDocumentedFormIsMapped() {
        EnvironmentVariables.Mapping m = EnvironmentVariables.map(Map.of(
                "WEIR_poll_ms",
                "1",
                "WEIR_POLL__MS",
                "2",
                "WEIR_",
                "3",
                "WEIR_CONSUMER_LINGER_MS",
                "4",
                "WEIR_CONFIG_FILE",
                "/etc/weir.properties"));
        assertThat(m.settings()).isEmpty();
        assertThat(m.ignored()).containsExactly("WEIR_", "WEIR_CONSUMER_LINGER_MS", "WEIR_POLL__MS", "WEIR_poll_ms");
    }

    @Test
    void noSettingCollidesWithTheOtherVariablesKubernetesDefinesForAService() {
        // <SERVICE>_PORT collides with http.port and is caught by its tcp:// value; these never
        // carry such a value, so no setting may end like them.
        for (String name : Settings.ALL.keySet()) {
            assertThat(name)
                    .doesNotEndWith(".service.host")
                    .doesNotEndWith(".service.port")
                    .doesNotContain(".tcp.")
                    .doesNotContain(".udp.")
                    .doesNotContain(".sctp.");
        }
    }
}
