package io.weir.samples.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyedCounterTest {

    @Test
    void incrementsStartWithTheSeedExampleAndAreDeterministic() {
        List<Increment> a = SampleIncrements.generate(42, 5, 1000);
        assertThat(a).hasSize(1000).isEqualTo(SampleIncrements.generate(42, 5, 1000));
        assertThat(a)
                .startsWith(new Increment("a", 2), new Increment("b", 2), new Increment("a", 2), new Increment("c", 1));
        assertThat(a).extracting(Increment::key).containsOnly("a", "b", "c", "d", "e");
        assertThat(a).extracting(Increment::amount).containsOnly(1L, 2L, 3L);
        assertThat(SampleIncrements.generate(43, 5, 1000)).isNotEqualTo(a);
    }

    @Test
    void fewerRecordsThanTheSeedExampleAreItsPrefix() {
        assertThat(SampleIncrements.generate(1, 3, 2)).containsExactly(new Increment("a", 2), new Increment("b", 2));
    }

    @Test
    void keysAreLettersFromThreeToTwentySix() {
        assertThat(SampleIncrements.key(0)).isEqualTo("a");
        assertThat(SampleIncrements.key(25)).isEqualTo("z");
        assertThat(SampleIncrements.generate(1, 26, 10_000))
                .extracting(Increment::key)
                .contains("z");
        assertThatThrownBy(() -> SampleIncrements.generate(1, 2, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SampleIncrements.generate(1, 27, 10)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anIncrementPrintsAsInTheSeed() {
        assertThat(new Increment("a", 2)).hasToString("[\"a\",2]");
    }

    @Test
    void topologyReadsIncrementsAndWritesSums() {
        Topology t = KeyedCounter.topology("increments", "running-sums");
        assertThat(t.sourceTopics()).containsExactly("increments");
        assertThat(t.sinkTopics()).containsExactly("running-sums");
    }
}
