package io.weir.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RepeatedMessageFilterTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> written = new ListAppender<>();
    private RepeatedMessageFilter filter;

    @BeforeEach
    void setUp() {
        written.setContext(context);
        written.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(written);
        filter = new RepeatedMessageFilter(nanos::get);
        filter.setContext(context);
    }

    private void start() {
        filter.start();
        context.addTurboFilter(filter);
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    private List<String> lines() {
        return written.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void writesTheFirstOccurrenceAndDropsRepeatsWithinTheInterval() {
        start();
        Logger client = context.getLogger("org.apache.kafka.clients.NetworkClient");
        for (int i = 0; i < 1000; i++) {
            client.warn("Connection to node {} could not be established (attempt {})", 1, i);
            advance(Duration.ofMillis(10)); // 10 s in all, inside the 30 s interval
        }
        assertThat(lines()).containsExactly("Connection to node 1 could not be established (attempt 0)");
    }

    @Test
    void writesOneRepeatPerIntervalPrecededByHowManyWereDropped() {
        start();
        Logger client = context.getLogger("org.apache.kafka.clients.NetworkClient");
        client.warn("Broker {} unreachable", 1);
        for (int i = 0; i < 4; i++) {
            advance(Duration.ofSeconds(5));
            client.warn("Broker {} unreachable", 1);
        }
        advance(Duration.ofSeconds(11)); // 31 s after the first
        client.warn("Broker {} unreachable", 1);

        assertThat(lines())
                .containsExactly(
                        "Broker 1 unreachable",
                        "Suppressed 4 repeats of the next message in the last 31 s"
                                + " (RepeatedMessageFilter lets one through every 30 s)",
                        "Broker 1 unreachable");
        ILoggingEvent report = written.list.get(1);
        assertThat(report.getLoggerName()).isEqualTo("org.apache.kafka.clients.NetworkClient");
        assertThat(report.getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void takesMessagesThatDifferOnlyInNumbersAsRepeats() {
        // Kafka's clients format their messages before logback sees them: no {} is left.
        start();
        Logger sender = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");
        for (int id = 40; id < 140; id++) {
            sender.warn("[Producer clientId=app-0-producer] Got error produce response with correlation id " + id
                    + " on topic-partition alerts-" + id % 4 + ", retrying (2147483646 attempts left)");
        }
        sender.warn("[Producer clientId=app-0-producer] Received invalid metadata error on partition alerts-1");
        assertThat(lines()).hasSize(2);
        assertThat(RepeatedMessageFilter.shape("id 47 on alerts-3, retrying (2147483646 attempts left)"))
                .isEqualTo("id # on alerts-#, retrying (# attempts left)");
        assertThat(RepeatedMessageFilter.shape("x".repeat(1000))).hasSize(RepeatedMessageFilter.SHAPE_LENGTH);
    }

    @Test
    void aRepeatAfterAQuietIntervalIsWrittenWithoutAReport() {
        start();
        Logger client = context.getLogger("kafka.server.ReplicaManager");
        client.error("Partition {} offline", "t-0");
        advance(Duration.ofMinutes(5));
        client.error("Partition {} offline", "t-0");
        assertThat(lines()).containsExactly("Partition t-0 offline", "Partition t-0 offline");
    }

    @Test
    void distinctMessagesAndLoggersPassIndependently() {
        start();
        Logger network = context.getLogger("org.apache.kafka.clients.NetworkClient");
        Logger fetcher = context.getLogger("org.apache.kafka.clients.consumer.internals.Fetcher");
        network.warn("Connection to node {} lost", 1);
        network.warn("Disconnected from node {}", 1);
        fetcher.warn("Connection to node {} lost", 1);
        network.warn("Connection to node {} lost", 2); // same format: a repeat
        assertThat(lines())
                .containsExactly("Connection to node 1 lost", "Disconnected from node 1", "Connection to node 1 lost");
    }

    @Test
    void leavesOtherLoggersLowerLevelsAndEnabledChecksAlone() {
        start();
        Logger weir = context.getLogger("io.weir.WeirApp");
        Logger kafkaesque = context.getLogger("kafkaesque.Trial");
        Logger client = context.getLogger("org.apache.kafka.clients.Metadata");
        for (int i = 0; i < 3; i++) {
            weir.warn("Stalled");
            kafkaesque.warn("Accused");
            client.info("Cluster ID: {}", "x");
        }
        assertThat(lines()).hasSize(9);
        client.warn("Error while fetching metadata");
        assertThat(client.isWarnEnabled()).isTrue();
        assertThat(client.isWarnEnabled()).isTrue();
    }

    @Test
    void doesNotCountMessagesTheLoggerWouldNotWrite() {
        start();
        Logger client = context.getLogger("org.apache.kafka.clients.NetworkClient");
        client.setLevel(Level.ERROR);
        client.warn("Retrying");
        client.setLevel(null);
        client.warn("Retrying");
        assertThat(lines()).containsExactly("Retrying");
    }

    @Test
    void remembersABoundedNumberOfMessages() {
        filter.setMaxKeys(100);
        start();
        Logger client = context.getLogger("org.apache.kafka.clients.NetworkClient");
        for (int i = 0; i < 10_000; i++) {
            client.warn("Message " + letters(i)); // distinct: not told apart by digits, which are ignored
        }
        assertThat(filter.rememberedMessages()).isEqualTo(100);
        assertThat(lines()).hasSize(10_000);
    }

    private static String letters(int n) {
        StringBuilder b = new StringBuilder();
        for (char c : Integer.toString(n).toCharArray()) {
            b.append((char) ('a' + c - '0'));
        }
        return b.toString();
    }

    @Test
    void honoursConfiguredLoggersLevelAndInterval() {
        filter.setLoggers("io.weir.samples, *nothing*");
        filter.setLevel("INFO");
        filter.setInterval("2 seconds");
        start();
        Logger sample = context.getLogger("io.weir.samples.common.CommittedTail");
        Logger client = context.getLogger("org.apache.kafka.clients.NetworkClient");
        sample.info("Waiting");
        sample.info("Waiting");
        client.warn("Retrying");
        client.warn("Retrying");
        advance(Duration.ofSeconds(2));
        sample.info("Waiting");
        assertThat(lines())
                .containsExactly(
                        "Waiting",
                        "Retrying",
                        "Retrying",
                        "Suppressed 1 repeats of the next message in the last 2 s"
                                + " (RepeatedMessageFilter lets one through every 2 s)",
                        "Waiting");
    }

    @Test
    void anInvalidConfigurationLeavesTheFilterInactiveAndSaysWhy() {
        filter.setLevel("LOUD");
        start();
        assertThat(filter.isStarted()).isFalse();
        assertThat(context.getStatusManager().getCopyOfStatusList())
                .anySatisfy(s -> assertThat(s.getMessage()).contains("'LOUD'"));
        Logger client = context.getLogger("org.apache.kafka.clients.NetworkClient");
        client.warn("Retrying");
        client.warn("Retrying");
        assertThat(lines()).hasSize(2);
    }
}
