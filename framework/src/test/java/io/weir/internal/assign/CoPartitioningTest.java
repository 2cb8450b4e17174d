package io.weir.internal.assign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.TopologyException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoPartitioningTest {

    @Test
    void aStatefulSubtopologyWithUnequalInputsFailsNamingTopicsAndCounts() {
        assertThatThrownBy(() -> CoPartitioning.require(
                        AssignTopologies.statefulMergeAndStatelessCopy(), Map.of("a", 3, "b", 4, "c", 7)))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("sub-topology 0 (stores [counts]) reads topics that are not co-partitioned:"
                        + " a has 3 partitions, b has 4 partitions")
                .hasMessageContaining("same partition count")
                .hasMessageNotContaining("c has");
    }

    @Test
    void equalCountsAndStatelessSubtopologiesPass() {
        assertThatNoException()
                .isThrownBy(() -> CoPartitioning.require(
                        AssignTopologies.statefulMergeAndStatelessCopy(), Map.of("a", 4, "b", 4, "c", 1)));
        assertThatNoException()
                .isThrownBy(() -> CoPartitioning.require(
                        AssignTopologies.statelessMergeAndPattern(), Map.of("a", 2, "b", 3, "p-1", 2, "p-2", 3)));
    }

    @Test
    void topicsMatchedByAPatternCountAsInputs() {
        assertThat(CoPartitioning.violations(AssignTopologies.statefulPattern(), Map.of("p-1", 2, "p-2", 3, "q", 5)))
                .containsExactly("sub-topology 0 (stores [last]) reads topics that are not co-partitioned:"
                        + " p-1 has 2 partitions, p-2 has 3 partitions");
    }

    @Test
    void topicsWithoutAKnownCountAreSkipped() {
        assertThat(CoPartitioning.violations(AssignTopologies.statefulMergeAndStatelessCopy(), Map.of("a", 3)))
                .isEmpty();
    }
}
