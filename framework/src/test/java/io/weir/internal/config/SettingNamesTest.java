package io.weir.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart's list of setting names cannot drift from what Weir accepts: regenerate it
 * (docs/README.md, "Writing the docs") when a setting or the Kafka clients change.
 */
class SettingNamesTest {

    private static final Path CHART_FILE = Path.of("..").resolve(SettingNames.CHART_FILE);

    @Test
    void theChartsFileIsTheGeneratedOne() throws IOException {
        assertThat(Files.readString(CHART_FILE))
                .as(CHART_FILE + " differs from SettingNames; regenerate it with " + SettingNames.REGENERATE)
                .isEqualTo(SettingNames.chartFile());
    }

    @Test
    void acceptedNamesAreExactlyThoseTheEnvironmentMappingTakes() {
        assertThat(SettingNames.accepted())
                .allSatisfy(name ->
                        assertThat(ClientSettings.isKnown(name)).as(name).isTrue())
                .contains(
                        "rocksdb.memory.bytes",
                        "http.auth.token",
                        "sasl.jaas.config",
                        "producer.linger.ms",
                        "restore.consumer.max.poll.records",
                        "admin.request.timeout.ms")
                .doesNotContain("restore.consumer.linger.ms", "producer.application.id", "max.poll.recordz")
                // Each name must survive WEIR_<NAME> and back: no '_' or '-' in any of them.
                .allSatisfy(name -> assertThat(name).matches("[a-z0-9]+(\\.[a-z0-9]+)*"));
        Map<String, String> environment = Map.of("WEIR_RESTORE_CONSUMER_MAX_POLL_RECORDS", "10", "WEIR_NO_SUCH", "1");
        assertThat(EnvironmentVariables.map(environment).settings().keySet())
                .containsExactly("restore.consumer.max.poll.records");
    }

    @Test
    void byteCountsAreWeirsAndTheKafkaClientsSizesPrefixedOrNot() {
        assertThat(SettingNames.byteCounts())
                .isSubsetOf(SettingNames.accepted())
                .contains(
                        "rocksdb.memory.bytes",
                        "state.cache.max.bytes",
                        "store.read.cache.bytes",
                        "dead.letter.max.message.bytes",
                        "buffer.memory",
                        "producer.batch.size",
                        "max.request.size",
                        "restore.consumer.fetch.max.bytes",
                        "admin.receive.buffer.bytes")
                .doesNotContain("linger.ms", "num.stream.threads", "consumer.max.poll.records");
    }
}
