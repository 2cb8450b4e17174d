package io.weir.internal.topology;

import io.weir.dsl.StreamPartitioner;
import io.weir.dsl.TopicNameExtractor;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.util.List;
import java.util.regex.Pattern;

/** The description of one node of a topology; immutable, instantiated once per task. */
public sealed interface NodeSpec permits NodeSpec.Source, NodeSpec.Processing, NodeSpec.Sink {

    String name();

    List<String> parents();

    /**
     * Reads topics (a list, or every topic matching a pattern) and deserializes their records.
     * {@code internal} marks a repartition topic: its name is relative to the application id until
     * {@link TopologyModel#resolve} prefixes it. {@code timestamps} gives records their time; null
     * for the default ({@code default.timestamp}, or record time for internal topics).
     * {@code eventTime} is false for an internal topic that does not carry its writers' event
     * time (a foreign-key join's subscriptions and responses, which go both ways between two
     * sub-topologies, so that each side's watermark would wait for the other's for ever): its
     * partitions neither hold the reading task's watermark back nor receive watermark markers.
     * {@code partitions} fixes an internal topic's partition count ({@code
     * Repartitioned.withPartitions}); 0 lets {@link TaskCounts} derive it.
     */
    record Source(
            String name,
            List<String> topics,
            Pattern pattern,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            boolean internal,
            io.weir.time.TimestampExtractor<?, ?> timestamps,
            boolean eventTime,
            int partitions)
            implements NodeSpec {

        /** A source whose internal topic's partition count is derived. */
        public Source(
                String name,
                List<String> topics,
                Pattern pattern,
                Serde<?> keySerde,
                Serde<?> valueSerde,
                boolean internal,
                io.weir.time.TimestampExtractor<?, ?> timestamps,
                boolean eventTime) {
            this(name, topics, pattern, keySerde, valueSerde, internal, timestamps, eventTime, 0);
        }

        /** A source whose records carry event time. */
        public Source(
                String name,
                List<String> topics,
                Pattern pattern,
                Serde<?> keySerde,
                Serde<?> valueSerde,
                boolean internal,
                io.weir.time.TimestampExtractor<?, ?> timestamps) {
            this(name, topics, pattern, keySerde, valueSerde, internal, timestamps, true);
        }

        @Override
        public List<String> parents() {
            return List.of();
        }

        /** This source reading {@code topics} instead. */
        public Source withTopics(List<String> topics) {
            return new Source(name, topics, pattern, keySerde, valueSerde, internal, timestamps, eventTime, partitions);
        }

        /** True for an internal topic whose partition count the topology fixes. */
        public boolean fixedPartitions() {
            return internal && partitions > 0;
        }

        public boolean reads(String topic) {
            return pattern != null ? pattern.matcher(topic).matches() : topics.contains(topic);
        }

        String describeInput() {
            return pattern != null ? "pattern " + pattern.pattern() : String.join(", ", topics);
        }
    }

    /** Runs a processor, with access to the named state stores. */
    record Processing(String name, ProcessorSupplier<?, ?, ?, ?> supplier, List<String> parents, List<String> stores)
            implements NodeSpec {}

    /**
     * Serializes and writes records to a fixed topic or to the topic an extractor names;
     * {@code internal} as for {@link Source}; {@code partitioner} chooses each record's partition,
     * null for Kafka's default.
     */
    record Sink(
            String name,
            String topic,
            TopicNameExtractor<?, ?> extractor,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            List<String> parents,
            boolean internal,
            StreamPartitioner<?, ?> partitioner)
            implements NodeSpec {

        /** This sink writing to {@code topic} instead. */
        Sink withTopic(String topic) {
            return new Sink(name, topic, extractor, keySerde, valueSerde, parents, internal, partitioner);
        }

        String describeOutput() {
            return topic != null ? topic : "<topic chosen per record>";
        }
    }
}
