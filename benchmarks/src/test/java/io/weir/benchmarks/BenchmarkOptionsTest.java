package io.weir.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.benchmarks.enrich.EnrichOptions;
import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

    @Test
    void everySystemRunsUnlessSystemsNamesSome() {
        BenchmarkOptions all = BenchmarkOptions.parse("--workload", "scale-out");
        assertThat(all.runs("weir")).isTrue();
        assertThat(all.runs("kafka_streams")).isTrue();

        BenchmarkOptions weirOnly = BenchmarkOptions.parse("--workload", "scale-out", "--systems", "weir, bare");
        assertThat(weirOnly.runs("weir")).isTrue();
        assertThat(weirOnly.runs("bare")).isTrue();
        assertThat(weirOnly.runs("kafka_streams")).isFalse();
    }

    @Test
    void anEmptySystemsListIsRefusedWithTheUsage() {
        assertThatThrownBy(() -> BenchmarkOptions.parse("--systems", ","))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--systems needs at least one system name")
                .hasMessageContaining("usage:");
    }

    @Test
    void theYsbLadderDefaultsToOneHundredToFiveHundredThousandAndTakesItsOptions() {
        assertThat(BenchmarkOptions.parse("--workload", "ysb").ysb()).isEqualTo(BenchmarkOptions.Ysb.DEFAULT);
        assertThat(BenchmarkOptions.Ysb.DEFAULT.rates()).containsExactly(100_000, 200_000, 300_000, 400_000, 500_000);

        BenchmarkOptions o = BenchmarkOptions.parse(
                "--workload=ysb",
                "--ysb-rates",
                "50_000, 80000",
                "--ysb-warmup-seconds",
                "5",
                "--ysb-seconds=10",
                "--ysb-drain-seconds",
                "7");
        assertThat(o.workloads()).containsExactly(Scenario.YSB);
        assertThat(o.ysb().rates()).containsExactly(50_000, 80_000);
        assertThat(o.ysb().warmup()).hasSeconds(5);
        assertThat(o.ysb().measured()).hasSeconds(10);
        assertThat(o.ysb().drain()).hasSeconds(7);
    }

    @Test
    void aYsbRateThatIsNotPositiveIsRefusedWithTheUsage() {
        assertThatThrownBy(() -> BenchmarkOptions.parse("--ysb-rates", "100000,0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--ysb-rates must be positive")
                .hasMessageContaining("usage:");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--ysb-rates", "lots"))
                .hasMessageContaining("--ysb-rates needs a whole number");
    }

    @Test
    void enrichIsInNoGroupAndTakesItsOptions() {
        assertThat(BenchmarkOptions.parse("--workload", "all").workloads()).doesNotContain(Scenario.ENRICH);
        BenchmarkOptions defaults = BenchmarkOptions.parse("--workload", "enrich");
        assertThat(defaults.workloads()).containsExactly(Scenario.ENRICH);
        assertThat(defaults.enrich()).isEqualTo(EnrichOptions.DEFAULT);
        assertThat(EnrichOptions.DEFAULT.latenciesMs()).containsExactly(5, 20, 100);

        EnrichOptions o = BenchmarkOptions.parse(
                        "--workload=enrich",
                        "--enrich-latencies-ms",
                        "20",
                        "--enrich-records=5000",
                        "--enrich-in-flight",
                        "100, 10",
                        "--enrich-sync-seconds",
                        "5",
                        "--enrich-paced-seconds=0",
                        "--enrich-failure-rate",
                        "0.01")
                .enrich();
        assertThat(o.latenciesMs()).containsExactly(20);
        assertThat(o.records()).isEqualTo(5000);
        assertThat(o.inFlight()).containsExactly(100, 10);
        assertThat(o.syncBudget()).hasSeconds(5);
        assertThat(o.paced()).isZero();
        assertThat(o.failureRate()).isEqualTo(0.01);
    }

    @Test
    void anEnrichOptionOutOfRangeIsRefusedWithTheUsage() {
        assertThatThrownBy(() -> BenchmarkOptions.parse("--enrich-failure-rate", "1.5"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--enrich-failure-rate in [0, 1)")
                .hasMessageContaining("usage:");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--enrich-in-flight", "0"))
                .hasMessageContaining("usage:");
    }
}
