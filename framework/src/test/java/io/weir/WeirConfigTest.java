package io.weir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.sink.DeliveryGuarantee;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeirConfigTest {

    private static WeirConfig.Builder valid() {
        return WeirConfig.builder().applicationId("app").bootstrapServers("localhost:9092").environment(Map.of());
    }

    @Test
    void missingBootstrapServersNamesTheSetting() {
        assertThatThrownBy(() -> WeirConfig.builder().applicationId("app").environment(Map.of()).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'bootstrap.servers'")
                .hasMessageContaining("required")
                .extracting(e -> ((ConfigException) e).setting()).isEqualTo("bootstrap.servers");
    }

    @Test
    void missingApplicationIdNamesTheSetting() {
        assertThatThrownBy(() -> WeirConfig.builder().bootstrapServers("x:1").environment(Map.of()).build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'application.id'");
    }

    @Test
    void unknownGuaranteeNamesTheSettingAndTheAllowedValues() {
        assertThatThrownBy(() -> valid().set("processing.guarantee", "exactly_twice").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'processing.guarantee'")
                .hasMessageContaining("exactly_twice")
                .hasMessageContaining("exactly_once, at_least_once, at_most_once, none");
    }

    @Test
    void negativeCommitIntervalNamesTheSetting() {
        assertThatThrownBy(() -> valid().set("commit.interval.ms", "-5").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'commit.interval.ms'")
                .hasMessageContaining(">= 0");
    }

    @Test
    void timeSettingsAreValidatedAndNamed() {
        assertThatThrownBy(() -> valid().set("max.out.of.orderness.ms", "-1").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'max.out.of.orderness.ms'");
        assertThatThrownBy(() -> valid().set("idle.timeout.ms", "soon").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'idle.timeout.ms'");
        assertThatThrownBy(() -> valid().set("late.records.mode", "ignore").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'late.records.mode'")
                .hasMessageContaining("topic, drop");
        assertThatThrownBy(() -> valid().set("default.timestamp", "event").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'default.timestamp'")
                .hasMessageContaining("record, log_append, wall_clock");
    }

    @Test
    void timeSettingsHaveTheDocumentedDefaults() {
        WeirConfig c = valid().build();
        assertThat(c.maxOutOfOrderness()).isEqualTo(Duration.ZERO);
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.lateRecordsToTopic()).isTrue();
        assertThat(c.lateRecordsTopic()).isEqualTo("app-late");
        assertThat(c.defaultTimestamp()).isEqualTo(io.weir.time.TimestampSource.RECORD);
        assertThat(valid().set("late.records.mode", "drop").set("late.records.topic", "late-ones").build())
                .satisfies(d -> {
                    assertThat(d.lateRecordsToTopic()).isFalse();
                    assertThat(d.lateRecordsTopic()).isEqualTo("late-ones");
                });
    }

    @Test
    void nonNumericThreadCountNamesTheSetting() {
        assertThatThrownBy(() -> valid().set("num.stream.threads", "many").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'num.stream.threads'");
    }

    @Test
    void unknownSettingIsRejectedWithTheKnownOnes() {
        assertThatThrownBy(() -> valid().set("comit.interval.ms", "5").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'comit.interval.ms'")
                .hasMessageContaining("commit.interval.ms");
    }

    @Test
    void settingsWeirManagesAreRejectedWithTheAlternative() {
        assertThatThrownBy(() -> valid().set("enable.auto.commit", "true").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'enable.auto.commit'")
                .hasMessageContaining("processing.guarantee");
        assertThatThrownBy(() -> valid().set("consumer.group.id", "other").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("application.id");
    }

    @Test
    void defaultsFollowTheGuarantee() {
        WeirConfig eos = valid().build();
        assertThat(eos.guarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(eos.commitInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(eos.deadLetterTopic()).isEqualTo("app-dlq");
        WeirConfig alo = valid().guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build();
        assertThat(alo.commitInterval()).isEqualTo(Duration.ofMillis(1000));
    }

    @Test
    void environmentOverridesCodeWhichOverridesTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "application.id=from-file\nbootstrap.servers=file:1\nnum.stream.threads=3\n"
                + "commit.interval.ms=7\n");
        WeirConfig c = WeirConfig.builder()
                .propertiesFile(file)
                .bootstrapServers("code:1")
                .set("commit.interval.ms", 8)
                .environment(Map.of("WEIR_COMMIT_INTERVAL_MS", "9", "OTHER", "x"))
                .build();
        assertThat(c.applicationId()).isEqualTo("from-file");
        assertThat(c.bootstrapServers()).isEqualTo("code:1");
        assertThat(c.numStreamThreads()).isEqualTo(3);
        assertThat(c.commitInterval()).isEqualTo(Duration.ofMillis(9));
    }

    @Test
    void kafkaSettingsPassThroughToTheRightClients() {
        WeirConfig c = valid().set("compression.type", "lz4").set("consumer.max.poll.records", "50")
                .set("producer.linger.ms", "10").build();
        assertThat(c.producerOverrides()).containsEntry("compression.type", "lz4").containsEntry("linger.ms", "10");
        assertThat(c.consumerOverrides()).containsEntry("max.poll.records", "50").doesNotContainKey("linger.ms");
        assertThatThrownBy(() -> valid().set("consumer.linger.ms", "10").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'consumer.linger.ms'");
    }

    @Test
    void applicationIdMustBeUsableInTopicNames() {
        assertThatThrownBy(() -> valid().applicationId("my app!").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("'application.id'");
    }
}
