package io.weir.samples.wordcount;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WordCountTest {

    @Test
    void splitsOnNonWordCharactersInLowerCase() {
        assertThat(WordCount.words("The Fox, the DOG... and_the log!"))
                .containsExactly("the", "fox", "the", "dog", "and_the", "log");
        assertThat(WordCount.words("Exactly once: 2 times")).containsExactly("exactly", "once", "2", "times");
    }

    @Test
    void leadingPunctuationGivesAnEmptyWordThatIsNotCounted() {
        assertThat(WordCount.words("...once")).containsExactly("", "once");
        assertThat(WordCount.expectedCounts(List.of("...once", "", "  "))).isEqualTo(Map.of("once", 1L));
    }

    @Test
    void aTombstoneHasNoWords() {
        assertThat(WordCount.words(null)).isEmpty();
    }

    @Test
    void countsWordsAcrossLines() {
        assertThat(WordCount.expectedCounts(List.of("The cat sat on the mat.", "The dog sat.", "A cat, a dog!")))
                .isEqualTo(Map.of("the", 3L, "cat", 2L, "sat", 2L, "on", 1L, "mat", 1L, "dog", 2L, "a", 2L));
    }

    @Test
    void topologyReadsLinesAndWritesCounts() {
        Topology t = WordCount.topology("lines", "word-counts");
        assertThat(t.sourceTopics()).containsExactly("lines");
        assertThat(t.sinkTopics()).containsExactly("word-counts");
    }

    @Test
    void sampleTextIsDeterministicAndDrawnFromTheSentences() {
        List<String> a = new SampleText(42).lines(500);
        assertThat(a).hasSize(500).isEqualTo(new SampleText(42).lines(500));
        assertThat(SampleText.SENTENCES).containsAll(a);
        assertThat(a).containsAll(SampleText.SENTENCES);
        assertThat(new SampleText(43).lines(500)).isNotEqualTo(a);
    }
}
