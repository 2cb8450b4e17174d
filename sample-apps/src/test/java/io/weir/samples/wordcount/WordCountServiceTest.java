package io.weir.samples.wordcount;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.RecordGenerator;
import io.weir.serde.Serdes;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class WordCountServiceTest {

    @Test
    void feedsSampleLinesWithDistinctKeysStampedWhenSent() {
        RecordGenerator lines = WordCountService.lines(7);
        ProducerRecord<byte[], byte[]> first = lines.next("lines", 1000L);
        ProducerRecord<byte[], byte[]> second = lines.next("lines", 2000L);
        assertThat(first.topic()).isEqualTo("lines");
        assertThat(first.timestamp()).isEqualTo(1000L);
        assertThat(Serdes.strings().deserialize("lines", first.key())).isEqualTo("line-0");
        assertThat(Serdes.strings().deserialize("lines", second.key())).isEqualTo("line-1");
        assertThat(SampleText.SENTENCES).contains(Serdes.strings().deserialize("lines", first.value()));
    }

    @Test
    void servesTheSampleTopicsAndApplicationId() {
        assertThat(WordCountService.sample()).satisfies(s -> {
            assertThat(s.name()).isEqualTo("word-count");
            assertThat(s.applicationId()).isEqualTo("word-count");
            assertThat(s.inputTopic()).isEqualTo("lines");
            assertThat(s.outputTopic()).isEqualTo("word-counts");
        });
    }
}
