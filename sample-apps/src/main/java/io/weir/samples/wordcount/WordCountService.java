package io.weir.samples.wordcount;

import io.weir.samples.common.RecordGenerator;
import io.weir.samples.common.ServedSample;
import io.weir.serde.Serdes;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The word count as a service ({@code serve word-count}) and its input for {@code load word-count}:
 * lines of {@link SampleText}, keyed {@code line-<n>}, so they spread over the input partitions
 * and every word is counted on the partition its repartition key picks.
 */
public final class WordCountService {

    private WordCountService() {}

    /** The topic {@code serve word-count} reads by default. */
    public static final String INPUT_TOPIC = "lines";
    /** The topic {@code serve word-count} writes by default. */
    public static final String OUTPUT_TOPIC = "word-counts";

    /**
     * {@code word-count}: application {@code word-count}, reads {@code lines}, writes {@code word-counts};
     * {@code --variant v2} runs {@link WordCountV2}.
     */
    public static ServedSample sample() {
        return new ServedSample(
                        "word-count",
                        "word-count",
                        INPUT_TOPIC,
                        OUTPUT_TOPIC,
                        WordCount::topology,
                        () -> lines(System.nanoTime()))
                .withVariant("v2", WordCountV2::topology);
    }

    /** Lines chosen by {@code seed}, keyed {@code line-0}, {@code line-1}, ... */
    static RecordGenerator lines(long seed) {
        SampleText text = new SampleText(seed);
        long[] count = {0};
        return (topic, timestamp) -> new ProducerRecord<>(
                topic,
                null,
                timestamp,
                Serdes.strings().serialize(topic, "line-" + count[0]++),
                Serdes.strings().serialize(topic, text.lines(1).get(0)));
    }
}
