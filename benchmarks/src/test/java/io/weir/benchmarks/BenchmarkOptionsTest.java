package io.weir.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
