package io.weir.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadTableTest {

    /** The configurations of the first workload of {@code args}, as "system guarantee". */
    private static List<String> configurations(String... args) {
        BenchmarkOptions options = BenchmarkOptions.parse(args);
        Scenario scenario = options.workloads().get(0);
        List<SystemUnderTest> lineup =
                WorkloadTable.of(scenario.kind()).lineup().systems(scenario, options);
        return Benchmark.configurations(scenario, lineup, options).stream()
                .map(c -> c.system().name() + " " + c.guarantee().label())
                .toList();
    }

    private static List<String> exactlyOnce(String... systems) {
        return Arrays.stream(systems).map(s -> s + " exactly_once").toList();
    }

    @Test
    void everyKindOfWorkloadHasALineWithADescription() {
        for (Scenario.Kind kind : Scenario.Kind.values()) {
            assertThat(WorkloadTable.of(kind).description()).as(kind.name()).isNotBlank();
        }
    }

    /**
     * The systems and guarantees columns of the README's workload table, in the order the runs
     * rotate through.
     */
    @Test
    void eachWorkloadRunsTheSystemsAndGuaranteesTheReadmeNames() {
        assertThat(configurations("--workload", "stateless-map"))
                .containsExactly(
                        "weir exactly_once",
                        "kafka_streams exactly_once",
                        "bare exactly_once",
                        "weir at_least_once",
                        "kafka_streams at_least_once",
                        "bare at_least_once");
        assertThat(configurations("--workload", "count-1m")).isEqualTo(exactlyOnce("weir", "kafka_streams"));
        assertThat(configurations("--workload", "restore-1m"))
                .isEqualTo(exactlyOnce("weir", "weir_batches", "kafka_streams", "bare"));
        assertThat(configurations("--workload", "window-count-10s")).isEqualTo(exactlyOnce("weir", "kafka_streams"));
        assertThat(configurations("--workload", "http-overhead"))
                .isEqualTo(exactlyOnce("weir_no_http", "weir", "weir_scraped", "kafka_streams"));
        assertThat(configurations("--workload", "bounded")).isEqualTo(exactlyOnce("weir", "weir_bounded"));
        assertThat(configurations("--workload", "restart-1m")).isEqualTo(exactlyOnce("weir", "kafka_streams"));
        assertThat(configurations("--workload", "memory-10m")).isEqualTo(exactlyOnce("weir"));
        assertThat(configurations("--workload", "start-to-ready")).isEqualTo(exactlyOnce("weir", "kafka_streams"));
        assertThat(configurations("--workload", "failover"))
                .isEqualTo(exactlyOnce("weir", "weir_detection_1s", "kafka_streams"));
        assertThat(configurations("--workload", "scale-out")).isEqualTo(exactlyOnce("weir", "kafka_streams"));
        assertThat(configurations("--workload", "savepoint")).isEqualTo(exactlyOnce("weir"));
        assertThat(configurations("--workload", "ysb")).isEqualTo(exactlyOnce("weir", "kafka_streams"));
        assertThat(configurations("--workload", "queries")).isEmpty();
        assertThat(configurations("--workload", "enrich")).isEmpty(); // runs its own systems
    }

    @Test
    void scrapeMetricsAddsWeirScrapedAndSystemsKeepsOnlyTheNamedOnes() {
        assertThat(configurations("--workload", "restore-1m", "--scrape-metrics-ms", "500"))
                .isEqualTo(exactlyOnce("weir", "weir_batches", "weir_scraped", "kafka_streams", "bare"));
        assertThat(configurations("--workload", "stateless-map", "--systems", "weir,bare"))
                .containsExactly("weir exactly_once", "bare exactly_once", "weir at_least_once", "bare at_least_once");
        assertThat(configurations("--workload", "scale-out", "--systems", "bare"))
                .isEmpty();
    }
}
