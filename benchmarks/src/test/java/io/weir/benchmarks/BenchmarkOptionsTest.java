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
}
