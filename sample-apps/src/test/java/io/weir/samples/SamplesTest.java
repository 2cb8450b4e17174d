package io.weir.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.SampleMain;
import org.junit.jupiter.api.Test;

class SamplesTest {

    @Test
    void namesEverySample() {
        assertThat(Samples.names())
                .containsExactlyInAnyOrder(
                        "temperature-alerts",
                        "word-count",
                        "keyed-counter",
                        "sensor-sums",
                        "click-sessions",
                        "hourly-counts",
                        "ysb",
                        "fraud-detection",
                        "order-pricing");
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertThat(SampleMain.execute(new Samples())).as("no sample named").isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "no-such-sample")).isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "word-count", "--lines", "0"))
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "keyed-counter", "--keys", "2"))
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "sensor-sums", "--sensors", "1"))
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "sensor-sums", "--out-of-orderness", "31"))
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "click-sessions", "--partitions", "0"))
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "hourly-counts", "--threshold", "11"))
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "ysb", "--rate", "0")).isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "fraud-detection", "--payments", "7"))
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "order-pricing", "--jitter-ms", "30"))
                .as("jitter above the latency")
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "serve"))
                .as("no sample to serve")
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "serve", "keyed-counter"))
                .as("not served")
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "serve", "word-count", "--variant", "v3"))
                .as("no such variant")
                .isEqualTo(2);
        assertThat(SampleMain.execute(new Samples(), "load", "word-count", "--rate", "0"))
                .isEqualTo(2);
    }

    @Test
    void helpOfEachSampleExitsWithZero() {
        for (String name : Samples.names()) {
            assertThat(SampleMain.execute(new Samples(), name, "--help"))
                    .as(name)
                    .isZero();
        }
        assertThat(SampleMain.execute(new Samples(), "serve", "--help")).isZero();
        assertThat(SampleMain.execute(new Samples(), "load", "--help")).isZero();
    }
}
