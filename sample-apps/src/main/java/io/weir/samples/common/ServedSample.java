package io.weir.samples.common;

import io.weir.Topology;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What the long-running modes {@code serve} and {@code load} need to know about a sample: its
 * name on the command line, its application id, the topics it reads and writes by default, how to
 * build its topology for given topics, and how to make input for it.
 *
 * <p>Unlike a sample's own command (which starts a broker, feeds a fixed input and checks the
 * results), a served sample is only the topology, run like any deployed service.
 *
 * @param name          the sample's command name, e.g. {@code word-count}
 * @param applicationId the default {@code application.id} ({@code WEIR_APPLICATION_ID} overrides it)
 * @param inputTopic    the topic the topology reads unless {@code --input-topic} names another
 * @param outputTopic   the topic it writes unless {@code --output-topic} names another
 * @param topology      builds the topology from (input topic, output topic)
 * @param generator     a new, independent source of input records for {@code load}
 * @param reference     the table the topology reads beside its input (a compacted topic it joins),
 *                      which {@code load} fills before it feeds the input; null when there is none
 * @param variants      the versions of the topology by name ({@code serve --variant NAME}), among them
 *                      {@value #DEFAULT_VARIANT}, the {@code topology}: a changed version to try beside
 *                      production from a savepoint
 */
public record ServedSample(
        String name,
        String applicationId,
        String inputTopic,
        String outputTopic,
        BiFunction<String, String, Topology> topology,
        Supplier<RecordGenerator> generator,
        Reference reference,
        Map<String, BiFunction<String, String, Topology>> variants) {

    /** The name of the topology {@link #topology()} builds, among {@link #variants()}. */
    public static final String DEFAULT_VARIANT = "v1";

    /** A reference topic and its records (the same every time: writing them again changes nothing). */
    public record Reference(String topic, Supplier<List<ProducerRecord<byte[], byte[]>>> records) {
        public Reference {
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(records, "records");
        }
    }

    /** A sample that reads its input topic only. */
    public ServedSample(
            String name,
            String applicationId,
            String inputTopic,
            String outputTopic,
            BiFunction<String, String, Topology> topology,
            Supplier<RecordGenerator> generator) {
        this(name, applicationId, inputTopic, outputTopic, topology, generator, null);
    }

    /** A sample of one version, {@value #DEFAULT_VARIANT}. */
    public ServedSample(
            String name,
            String applicationId,
            String inputTopic,
            String outputTopic,
            BiFunction<String, String, Topology> topology,
            Supplier<RecordGenerator> generator,
            Reference reference) {
        this(
                name,
                applicationId,
                inputTopic,
                outputTopic,
                topology,
                generator,
                reference,
                Map.of(DEFAULT_VARIANT, topology));
    }

    /** This sample with one more version of its topology, which {@code serve --variant NAME} runs. */
    public ServedSample withVariant(String variant, BiFunction<String, String, Topology> variantTopology) {
        Map<String, BiFunction<String, String, Topology>> all = new TreeMap<>(variants);
        if (all.put(variant, variantTopology) != null) {
            throw new IllegalArgumentException(name + " already has a variant " + variant);
        }
        return new ServedSample(name, applicationId, inputTopic, outputTopic, topology, generator, reference, all);
    }

    public ServedSample {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(inputTopic, "inputTopic");
        Objects.requireNonNull(outputTopic, "outputTopic");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(generator, "generator");
        variants = Collections.unmodifiableMap(new TreeMap<>(variants));
        if (variants.get(DEFAULT_VARIANT) != topology) {
            throw new IllegalArgumentException("variant " + DEFAULT_VARIANT + " of " + name + " must be its topology");
        }
    }
}
