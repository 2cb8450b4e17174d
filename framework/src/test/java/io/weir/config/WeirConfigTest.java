package io.weir.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ConfigException;
import io.weir.sink.DeliveryGuarantee;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeirConfigTest {

    private static WeirConfig.Builder valid() {
        return WeirConfig.builder()
                .applicationId("app")
                .bootstrapServers("localhost:9092")
                .environment(Map.of());
    }

    @Test
    void missingBootstrapServersNamesTheSetting() {
        assertThatThrownBy(() -> WeirConfig.builder()
                        .applicationId("app")
                        .environment(Map.of())
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'bootstrap.servers'")
                .hasMessageContaining("required")
                .extracting(e -> ((ConfigException) e).setting())
                .isEqualTo("bootstrap.servers");
    }

    @Test
    void runModeIsStreamingByDefaultAndBoundedFromTheEnvironment() {
        assertThat(valid().build().bounded()).isFalse();
        assertThat(valid().build().boundedUntil()).isEmpty();
        WeirConfig bounded = valid().environment(
                        Map.of("WEIR_RUN_MODE", "bounded", "WEIR_BOUNDED_UNTIL", "2024-05-01T00:00:00Z"))
                .build();
        assertThat(bounded.bounded()).isTrue();
        assertThat(bounded.boundedUntil()).contains(java.time.Instant.parse("2024-05-01T00:00:00Z"));
        assertThat(valid().set("run.mode", "bounded")
                        .set("bounded.until", "")
                        .build()
                        .boundedUntil())
                .isEmpty();
    }

    @Test
    void boundedSettingsAreValidatedAndNamed() {
        assertThatThrownBy(() -> valid().set("run.mode", "batch").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'run.mode'")
                .hasMessageContaining("streaming, bounded");
        assertThatThrownBy(() -> valid().set("run.mode", "bounded")
                        .set("bounded.until", "yesterday")
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'bounded.until'")
                .hasMessageContaining("ISO-8601");
        assertThatThrownBy(() ->
                        valid().set("bounded.until", "2024-05-01T00:00:00Z").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'bounded.until'")
                .hasMessageContaining("run.mode=bounded");
    }

    @Test
    void missingApplicationIdNamesTheSetting() {
        assertThatThrownBy(() -> WeirConfig.builder()
                        .bootstrapServers("x:1")
                        .environment(Map.of())
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'application.id'");
    }

    @Test
    void unknownGuaranteeNamesTheSettingAndTheAllowedValues() {
        assertThatThrownBy(() ->
                        valid().set("processing.guarantee", "exactly_twice").build())
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
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'max.out.of.orderness.ms'");
        assertThatThrownBy(() -> valid().set("idle.timeout.ms", "soon").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'idle.timeout.ms'");
        assertThatThrownBy(() -> valid().set("late.records.mode", "ignore").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'late.records.mode'")
                .hasMessageContaining("topic, drop");
        assertThatThrownBy(() -> valid().set("default.timestamp", "event").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'default.timestamp'")
                .hasMessageContaining("record, log_append, wall_clock");
    }

    @Test
    void timeSettingsHaveTheDocumentedDefaults() {
        WeirConfig c = valid().build();
        assertThat(c.eventTime().maxOutOfOrderness()).isEqualTo(Duration.ZERO);
        assertThat(c.eventTime().idleTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.eventTime().lateRecordsToTopic()).isTrue();
        assertThat(c.eventTime().lateRecordsTopic()).isEqualTo("app-late");
        assertThat(c.eventTime().defaultTimestamp()).isEqualTo(io.weir.time.TimestampSource.RECORD);
        assertThat(valid().set("late.records.mode", "drop")
                        .set("late.records.topic", "late-ones")
                        .build())
                .satisfies(d -> {
                    assertThat(d.eventTime().lateRecordsToTopic()).isFalse();
                    assertThat(d.eventTime().lateRecordsTopic()).isEqualTo("late-ones");
                });
    }

    @Test
    void nonNumericThreadCountNamesTheSetting() {
        assertThatThrownBy(() -> valid().set("num.stream.threads", "many").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'num.stream.threads'");
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
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("application.id");
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
        Files.writeString(
                file,
                "application.id=from-file\nbootstrap.servers=file:1\nnum.stream.threads=3\n"
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
        WeirConfig c = valid().set("compression.type", "lz4")
                .set("consumer.max.poll.records", "50")
                .set("producer.linger.ms", "10")
                .build();
        assertThat(c.producerOverrides())
                .containsEntry("compression.type", "lz4")
                .containsEntry("linger.ms", "10");
        assertThat(c.consumerOverrides())
                .containsEntry("max.poll.records", "50")
                .doesNotContainKey("linger.ms");
        assertThatThrownBy(() -> valid().set("consumer.linger.ms", "10").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'consumer.linger.ms'");
    }

    @Test
    void applicationIdMustBeUsableInTopicNames() {
        assertThatThrownBy(() -> valid().applicationId("my app!").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'application.id'");
    }

    @Test
    void enumValuesHaveOneSpellingAndTheOldOneNamesIt() {
        assertThat(valid().set("default.timestamp", "log_append")
                        .build()
                        .eventTime()
                        .defaultTimestamp())
                .isEqualTo(io.weir.time.TimestampSource.LOG_APPEND);
        assertThat(valid().set("default.timestamp", "WALL_CLOCK")
                        .build()
                        .eventTime()
                        .defaultTimestamp())
                .isEqualTo(io.weir.time.TimestampSource.WALL_CLOCK);
        assertThatThrownBy(() -> valid().set("default.timestamp", "log-append").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'default.timestamp'")
                .hasMessageContaining("is spelled log_append");
        assertThatThrownBy(() -> valid().set("error.mode", "dead-letter").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'error.mode'")
                .hasMessageContaining("is spelled dead_letter");
        assertThatThrownBy(() ->
                        valid().set("processing.guarantee", "at-least-once").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("is spelled at_least_once");
        assertThatThrownBy(() ->
                        valid().set("processing.guarantee", "exactly_once_v2").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'processing.guarantee'")
                .hasMessageContaining("use exactly_once (Weir's exactly_once is Kafka's EOS v2)");
    }

    @Test
    void operationsSettingsHaveTheDocumentedDefaults() {
        WeirConfig c = valid().build();
        assertThat(c.http().port()).isEqualTo(8080);
        assertThat(c.http().bindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.shutdownLeaveGroup()).isFalse();
        assertThat(c.stallWarn()).isEqualTo(Duration.ofSeconds(5));
        WeirConfig set = valid().set("http.port", "-1")
                .set("http.bind.address", "127.0.0.1")
                .set("shutdown.leave.group", "TRUE")
                .set("stall.warn.ms", "1000")
                .build();
        assertThat(set.http().port()).isEqualTo(-1);
        assertThat(set.http().bindAddress()).isEqualTo("127.0.0.1");
        assertThat(set.shutdownLeaveGroup()).isTrue();
        assertThat(set.shutdownLeaveGroupOnScaleIn()).isFalse();
        WeirConfig onScaleIn =
                valid().set("shutdown.leave.group", "kubernetes_scale_in").build();
        assertThat(onScaleIn.shutdownLeaveGroup()).isFalse();
        assertThat(onScaleIn.shutdownLeaveGroupOnScaleIn()).isTrue();
        assertThat(c.shutdownLeaveGroupOnScaleIn()).isFalse();
        assertThat(set.stallWarn()).isEqualTo(Duration.ofSeconds(1));
        assertThat(valid().set("http.port", "0").build().http().port()).isZero();
    }

    @Test
    void operationsSettingsAreValidatedAndNamed() {
        assertThatThrownBy(() -> valid().set("http.port", "-2").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'http.port'")
                .hasMessageContaining("from -1 to 65535");
        assertThatThrownBy(() -> valid().set("http.port", "65536").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'http.port'");
        assertThatThrownBy(() -> valid().set("http.bind.address", " ").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'http.bind.address'");
        assertThatThrownBy(() -> valid().set("shutdown.leave.group", "yes").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'shutdown.leave.group'")
                .hasMessageContaining("unknown value 'yes'; allowed: false, true, kubernetes_scale_in");
        assertThatThrownBy(() -> valid().set("shutdown.leave.group", "kubernetes-scale-in")
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("is spelled kubernetes_scale_in");
        assertThatThrownBy(() -> valid().set("stall.warn.ms", "999").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'stall.warn.ms'")
                .hasMessageContaining(">= 1000");
    }

    @Test
    void precedenceIsPackagedFileThenCodeThenDeploymentFileThenEnvironment(@TempDir Path dir) throws Exception {
        Path packaged = Files.writeString(
                dir.resolve("defaults.properties"),
                "application.id=packaged\npoll.ms=1\nnum.stream.threads=2\ncommit.interval.ms=1\n");
        Path deployment =
                Files.writeString(dir.resolve("deploy.properties"), "num.stream.threads=4\ncommit.interval.ms=4\n");
        WeirConfig c = WeirConfig.builder()
                .propertiesFile(packaged)
                .bootstrapServers("code:1")
                .set("poll.ms", 3)
                .set("num.stream.threads", 3)
                .set("commit.interval.ms", 3)
                .args("--config", deployment.toString())
                .environment(Map.of("WEIR_COMMIT_INTERVAL_MS", "5"))
                .build();
        assertThat(c.applicationId()).isEqualTo("packaged");
        assertThat(c.pollTimeout()).isEqualTo(Duration.ofMillis(3));
        assertThat(c.numStreamThreads()).isEqualTo(4);
        assertThat(c.commitInterval()).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void deploymentFileComesFromConfigArgumentOrTheEnvironmentAndTheArgumentWins(@TempDir Path dir) throws Exception {
        Path fromArg = Files.writeString(dir.resolve("arg.properties"), "num.stream.threads=2\n");
        Path fromEnv = Files.writeString(dir.resolve("env.properties"), "num.stream.threads=3\npoll.ms=7\n");
        Map<String, String> env = Map.of("WEIR_CONFIG_FILE", fromEnv.toString());
        assertThat(valid().environment(env).build().numStreamThreads()).isEqualTo(3);
        WeirConfig both = valid().environment(env).args("--config=" + fromArg).build();
        assertThat(both.numStreamThreads()).isEqualTo(2);
        assertThat(both.pollTimeout()).isEqualTo(Duration.ofMillis(100));
        assertThat(valid().configFile(fromArg).environment(env).build().numStreamThreads())
                .isEqualTo(2);
    }

    @Test
    void missingDeploymentFileFailsBuildNamingItsSourceAndPath(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");
        WeirConfig.Builder fromArg = valid().args("--config", missing.toString());
        assertThatThrownBy(fromArg::build)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'--config'")
                .hasMessageContaining(missing.toString());
        WeirConfig.Builder fromEnv = valid().environment(Map.of("WEIR_CONFIG_FILE", missing.toString()));
        assertThatThrownBy(fromEnv::build)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'WEIR_CONFIG_FILE'")
                .hasMessageContaining(missing.toString());
    }

    @Test
    void argumentsOtherThanConfigAreRejectedByName() {
        assertThatThrownBy(() -> valid().args("--follow"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'--follow'")
                .hasMessageContaining("--config FILE or --config=FILE");
        assertThatThrownBy(() -> valid().args("--config"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'--config'")
                .hasMessageContaining("needs a file");
        assertThatThrownBy(() -> valid().args("--config=a", "--config=b"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("given twice");
        assertThat(valid().args().build().applicationId()).isEqualTo("app");
    }

    @Test
    void foreignWeirVariablesAreIgnoredAndDocumentedOnesApply() {
        WeirConfig c = valid().environment(Map.of(
                        "WEIR_X_SERVICE_HOST", "10.0.0.1",
                        "WEIR_X_PORT_8080_TCP_ADDR", "10.0.0.1",
                        "WEIR_HTTP_PORT", "tcp://10.0.0.1:8080",
                        "WEIR_PRODUCER_LINGER_MS", "25",
                        "WEIR_RESTORE_CONSUMER_MAX_POLL_RECORDS", "500",
                        "WEIR_STALL_WARN_MS", "2000"))
                .build();
        assertThat(c.http().port()).isEqualTo(8080);
        assertThat(c.producerOverrides()).containsEntry("linger.ms", "25");
        assertThat(c.restoreConsumerOverrides()).containsEntry("max.poll.records", "500");
        assertThat(c.stallWarn()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void badKafkaPassThroughValuesFailBuildNamingTheSettingAsWritten() {
        assertThatThrownBy(() -> valid().set("producer.linger.ms", "abc").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'producer.linger.ms'")
                .hasMessageContaining("Not a number");
        assertThatThrownBy(() -> valid().set("consumer.max.poll.records", "-5").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'consumer.max.poll.records'")
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> valid().set("compression.type", "zip").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'compression.type'")
                .hasMessageContaining("gzip");
        assertThatThrownBy(() -> valid().environment(Map.of("WEIR_PRODUCER_LINGER_MS", "soon"))
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'producer.linger.ms'");
    }

    @Test
    void toStringHidesPasswords() {
        WeirConfig c = valid().set(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.plain.PlainLoginModule"
                                + " required username=\"u\" password=\"s3cret\";")
                .set("producer.ssl.key.password", "k3y")
                .build();
        assertThat(c.toString())
                .doesNotContain("s3cret", "k3y")
                .contains("sasl.jaas.config=[hidden]", "producer.ssl.key.password=[hidden]", "application.id=");
    }

    @Test
    void toStringHidesTheHttpPasswordsAndTokens() {
        WeirConfig c = valid().set("http.tls.keystore.path", "/tls/k.p12")
                .set("http.tls.keystore.password", "kp4ss")
                .set("http.tls.truststore.path", "/tls/t.p12")
                .set("http.tls.truststore.password", "tp4ss")
                .set("http.auth.token", "t0ken-a,t0ken-b")
                .build();
        assertThat(c.toString())
                .doesNotContain("kp4ss", "tp4ss", "t0ken")
                .contains(
                        "http.auth.token=[hidden]",
                        "http.tls.keystore.password=[hidden]",
                        "http.tls.truststore.password=[hidden]",
                        "http.tls.keystore.path=/tls/k.p12");
    }

    @Test
    void aMalformedTokenIsRefusedWithoutShowingIt() {
        assertThatThrownBy(() ->
                        valid().set("http.auth.token", "good,has space-s3cret").build())
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.auth.token"))
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void httpSecuritySettingsThatContradictEachOtherAreRefusedNamingTheSetting() {
        assertThatThrownBy(() ->
                        valid().set("http.tls.truststore.path", "/tls/t.p12").build())
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.tls.truststore.path"))
                .hasMessageContaining("http.tls.keystore.path");
        assertThatThrownBy(() -> valid().set("http.tls.keystore.path", "/tls/k.p12")
                        .set("http.tls.client.auth", "required")
                        .build())
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.tls.client.auth"));
        assertThatThrownBy(() -> valid().set("http.auth.token.file", "/run/token")
                        .set("http.admin.open", "true")
                        .build())
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.admin.open"));
        WeirConfig mtls = valid().set("http.tls.keystore.path", "/tls/k.p12")
                .set("http.tls.truststore.path", "/tls/t.p12")
                .build();
        assertThat(mtls.http().tlsClientAuth()).isEqualTo("optional");
        assertThat(valid().build().http().adminBindAddress())
                .isEqualTo(valid().build().http().bindAddress());
    }
}
