package io.weir.samples.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.CommittedWindows;
import io.weir.samples.common.SampleCommand;
import io.weir.samples.common.WindowResults;
import io.weir.state.Windowed;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The click-sessions sample on a real broker under exactly-once, checked here again from the committed output. */
class ClickSessionsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    @TempDir
    Path stateDir;

    @Test
    void sampleCommandPassesItsCheckAgainstAnExistingCluster() {
        String input = KAFKA.uniqueTopic("clicks", 3);
        String output = KAFKA.uniqueTopic("click-sessions", 1);
        String appId = "click-sessions-" + input;

        int exit = SampleCommand.run(
                new ClickSessionsApp(), KAFKA, appId, stateDir, "--input-topic", input, "--output-topic", output);

        assertThat(exit).isZero();
        List<ConsumerRecord<Windowed<String>, Long>> records = CommittedWindows.read(KAFKA, output);
        // Read as a changelog of windows: the sessions of the clicks, A's first two merged by the late click.
        WindowResults<String, Long> changelog = new WindowResults<>(Map.of());
        records.forEach(r -> changelog.received(r.key(), r.value()));
        assertThat(changelog.repeated()).isZero();
        assertThat(changelog.wrongRetractions()).isZero();
        assertThat(changelog.retracted()).hasSize(2).allMatch(w -> w.key().equals("A"));
        assertThat(changelog.standing()).hasSize(6);
        assertThat(changelog.standing().entrySet())
                .filteredOn(e -> e.getKey().key().equals("A"))
                .extracting(Map.Entry::getValue)
                .containsExactlyInAnyOrder(10L, 3L);
        assertThat(records.get(records.size() - 1).value()).isNotNull();
    }
}
