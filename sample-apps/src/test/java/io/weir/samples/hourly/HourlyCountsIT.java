package io.weir.samples.hourly;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.CommittedWindows;
import io.weir.samples.common.SampleCommand;
import io.weir.state.Windowed;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The hourly-counts sample on a real broker under exactly-once, checked here again from the committed output. */
class HourlyCountsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    @TempDir
    Path stateDir;

    @Test
    void sampleCommandPassesItsCheckAgainstAnExistingCluster() {
        String input = KAFKA.uniqueTopic("posts", 3);
        String counts = KAFKA.uniqueTopic("hourly-counts", 3);
        String alerts = KAFKA.uniqueTopic("count-alerts", 3);
        String appId = "hourly-counts-" + input;

        int exit = SampleCommand.run(
                new HourlyCountsApp(),
                KAFKA,
                appId,
                stateDir,
                "--input-topic",
                input,
                "--counts-topic",
                counts,
                "--alerts-topic",
                alerts);

        assertThat(exit).isZero();
        List<ConsumerRecord<Windowed<String>, Long>> alerted = CommittedWindows.read(KAFKA, alerts);
        assertThat(alerted).extracting(r -> r.key().key()).containsExactlyInAnyOrder("#weir", "#flink", "#kafka");
        assertThat(alerted).extracting(ConsumerRecord::value).containsOnly(11L);
        List<ConsumerRecord<Windowed<String>, Long>> hourly = CommittedWindows.read(KAFKA, counts);
        assertThat(hourly).extracting(ConsumerRecord::value).containsExactlyInAnyOrder(14L, 11L, 8L, 2L, 12L, 6L, 3L);
        assertThat(hourly)
                .allMatch(r -> "final"
                        .equals(new String(r.headers().lastHeader("weir.pane").value(), StandardCharsets.UTF_8)));
    }
}
