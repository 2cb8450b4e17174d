package io.weir.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void findsMetricNamesButNotFunctionsLabelsOrVariables() {
        assertThat(PromQl.metricNames("sum by (instance) (rate(weir_records_in_total{application=~\"$application\"}"
                        + "[$__rate_interval]))"))
                .containsExactly("weir_records_in_total");
        assertThat(PromQl.metricNames(
                        "sum by (instance) (rate(a_sum{x=\"y\"}[5m])) / sum by (instance) (rate(a_count[1m]))"))
                .containsExactly("a_sum", "a_count");
        assertThat(PromQl.metricNames("max by (instance, state) (weir_instance_state) == 1"))
                .containsExactly("weir_instance_state");
        assertThat(PromQl.metricNames("up{job=\"weir\"} and on (instance) b offset 5m > bool 0.5e3"))
                .containsExactly("up", "b");
    }

    @Test
    void findsGroupingLabels() {
        assertThat(PromQl.groupingLabels("sum by (topic, partition) (x) / on (instance) sum without(thread) (y)"))
                .containsExactly("topic", "partition", "thread");
    }
}
