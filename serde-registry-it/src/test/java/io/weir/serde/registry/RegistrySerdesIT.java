package io.weir.serde.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import io.weir.errors.SerdeException;
import io.weir.errors.ServiceUnavailableException;
import io.weir.internal.topology.FormatChanges;
import io.weir.serde.Serde;
import io.weir.serde.registry.avro.Order;
import io.weir.serde.registry.internal.EvolutionSchemas;
import io.weir.testkit.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The registry serdes against a real registry (Apicurio Registry, its Confluent-compatible API):
 * bytes equal to those of Avro's own encoder and Protobuf's own writer framed by hand in the wire
 * format, the registry asked once per schema, the subject strategies, auto-registration off, and
 * every error a user meets; and the compatibility verdicts of Weir's checks equal to the registry's.
 */
class RegistrySerdesIT {

    static SchemaRegistryServer server;
    static RegistryRest rest;

    static final Schema ORDER = new Schema.Parser().parse(EvolutionSchemas.ORDER_V1);

    @BeforeAll
    static void startRegistry() {
        server = SchemaRegistryServer.shared(); // unique subjects: one registry per test JVM
        rest = new RegistryRest(server.url());
    }

    static String topic(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static GenericRecord order(String id, long amount) {
        GenericRecord r = new GenericData.Record(ORDER);
        r.put("id", id);
        r.put("amount", amount);
        return r;
    }

    /** What Confluent's serializer writes: 0, the id (4 bytes, big-endian), Avro's own binary encoding. */
    static byte[] framedByHand(int id, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, e);
        e.flush();
        return out.toByteArray();
    }

    static int idOf(byte[] framed) {
        return ByteBuffer.wrap(framed, 1, 4).getInt();
    }

    @Test
    void avroBytesAreAvrosOwnEncodingInTheWireFormatAndTheRegistryIsAskedOncePerSchema() throws IOException {
        SchemaRegistry registry = SchemaRegistry.at(server.url());
        Serde<GenericRecord> serde = RegistrySerdes.avro(registry, RegistrySerdeOptions.values());
        String topic = topic("orders");
        byte[] first = serde.serialize(topic, order("o-1", 5));
        int id = idOf(first);
        assertThat(rest.get("/subjects/" + topic + "-value/versions/latest").body())
                .contains("\"id\":" + id);
        for (int i = 0; i < 1_000; i++) {
            GenericRecord o = order("o-" + i, i);
            byte[] ours = serde.serialize(topic, o);
            assertThat(ours).isEqualTo(framedByHand(id, o));
            assertThat(serde.deserialize(topic, ours)).isEqualTo(o);
        }
        assertThat(registry.requests())
                .as("one registration, no fetch (the id was learnt by registering)")
                .isEqualTo(1);

        // A reader in another process: it asks for the schema of the id once.
        SchemaRegistry other = SchemaRegistry.at(server.url());
        Serde<GenericRecord> reader = RegistrySerdes.avro(other, RegistrySerdeOptions.values());
        for (int i = 0; i < 100; i++) {
            assertThat(reader.deserialize(topic, framedByHand(id, order("x" + i, i)))
                            .get("id")
                            .toString())
                    .isEqualTo("x" + i);
        }
        assertThat(other.requests()).isEqualTo(1);
    }

    @Test
    void aSpecificRecordReadsWhatAGenericWriterWroteWithAnOlderSchema() {
        SchemaRegistry registry = SchemaRegistry.at(server.url());
        String topic = topic("specific");
        Schema old = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"Order\",\"namespace\":"
                        + "\"io.weir.serde.registry.avro\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
                        + "{\"name\":\"customer\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"int\"}]}");
        GenericRecord written = new GenericData.Record(old);
        written.put("id", "o-1");
        written.put("customer", "c-9");
        written.put("amount", 42);
        byte[] bytes =
                RegistrySerdes.avro(registry, RegistrySerdeOptions.values()).serialize(topic, written);

        Serde<Order> specific = RegistrySerdes.avro(registry, Order.class, RegistrySerdeOptions.values());
        Order read = specific.deserialize(topic, bytes);
        assertThat(read.getId()).isEqualTo("o-1");
        assertThat(read.getAmount()).as("int promoted to long").isEqualTo(42L);
        assertThat(specific.deserialize(topic, specific.serialize(topic, read))).isEqualTo(read);
    }

    static Descriptor orderDescriptor() throws Descriptors.DescriptorValidationException {
        DescriptorProto line = DescriptorProto.newBuilder()
                .setName("Line")
                .addField(field("sku", 1, Type.TYPE_STRING, Label.LABEL_OPTIONAL, null))
                .addField(field("quantity", 2, Type.TYPE_INT32, Label.LABEL_OPTIONAL, null))
                .build();
        DescriptorProto order = DescriptorProto.newBuilder()
                .setName("Order")
                .addField(field("id", 1, Type.TYPE_STRING, Label.LABEL_OPTIONAL, null))
                .addField(field("lines", 2, Type.TYPE_MESSAGE, Label.LABEL_REPEATED, ".shop.Order.Line"))
                .addNestedType(line)
                .build();
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("shop/order.proto")
                .setPackage("shop")
                .setSyntax("proto3")
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("Header")
                        .addField(field("note", 1, Type.TYPE_STRING, Label.LABEL_OPTIONAL, null)))
                .addMessageType(order)
                .build();
        return Descriptors.FileDescriptor.buildFrom(file, new Descriptors.FileDescriptor[0])
                .findMessageTypeByName("Order");
    }

    static FieldDescriptorProto field(String name, int number, Type type, Label label, String typeName) {
        FieldDescriptorProto.Builder f = FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(label);
        if (typeName != null) {
            f.setTypeName(typeName);
        }
        return f.build();
    }

    @Test
    void protobufBytesAreTheMessageAfterTheHeaderAndItsPathAndTheRegistryTakesTheProtoText() throws Exception {
        Descriptor orderType = orderDescriptor();
        Descriptor lineType = orderType.getNestedTypes().get(0);
        SchemaRegistry registry = SchemaRegistry.at(server.url());
        String topic = topic("proto");
        Serde<DynamicMessage> orders = RegistrySerdes.protobuf(
                registry, DynamicMessage.getDefaultInstance(orderType), RegistrySerdeOptions.values());
        DynamicMessage line = DynamicMessage.newBuilder(lineType)
                .setField(lineType.findFieldByName("sku"), "apple")
                .setField(lineType.findFieldByName("quantity"), 3)
                .build();
        DynamicMessage order = DynamicMessage.newBuilder(orderType)
                .setField(orderType.findFieldByName("id"), "o-1")
                .addRepeatedField(orderType.findFieldByName("lines"), line)
                .build();
        byte[] ours = orders.serialize(topic, order);
        int id = idOf(ours);
        // Order is the second message of its file: its path is [1], a count of 1 then 1, zig-zag: 2, 2.
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(0);
        expected.write(ByteBuffer.allocate(4).putInt(id).array());
        expected.write(new byte[] {2, 2});
        expected.write(order.toByteArray());
        assertThat(ours).isEqualTo(expected.toByteArray());
        assertThat(orders.deserialize(topic, ours)).isEqualTo(order);

        Serde<DynamicMessage> lines = RegistrySerdes.protobuf(
                registry, DynamicMessage.getDefaultInstance(lineType), RegistrySerdeOptions.values());
        byte[] lineBytes = lines.serialize(topic("line"), line);
        // Line is nested in Order: path [1, 0], a count of 2 then 1 and 0: 4, 2, 0.
        assertThat(java.util.Arrays.copyOfRange(lineBytes, 5, 8)).containsExactly(4, 2, 0);

        String stored = rest.get("/schemas/ids/" + id).body();
        assertThat(stored)
                .contains("PROTOBUF")
                .contains("message Order")
                .contains("repeated .shop.Order.Line lines = 2");
    }

    public record Payment(String id, long cents) {}

    @Test
    void jsonSchemaValuesRoundTripUnderTheSchemaGiven() {
        SchemaRegistry registry = SchemaRegistry.at(server.url());
        String schema = "{\"title\":\"Payment\",\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},"
                + "\"cents\":{\"type\":\"integer\"}},\"required\":[\"id\"]}";
        Serde<Payment> serde = RegistrySerdes.jsonSchema(
                registry, Payment.class, schema, RegistrySerdeOptions.values().withSubjects(SubjectStrategy.RECORD));
        String topic = topic("payments");
        byte[] bytes = serde.serialize(topic, new Payment("p-1", 250));
        assertThat(new String(bytes, 5, bytes.length - 5, java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":\"p-1\",\"cents\":250}");
        assertThat(serde.deserialize(topic, bytes)).isEqualTo(new Payment("p-1", 250));
        assertThat(rest.get("/subjects/Payment/versions/latest").body()).contains("\"id\":" + idOf(bytes));
    }

    @Test
    void theSubjectStrategiesNameSubjectsAsConfluentsDo() {
        SchemaRegistry registry = SchemaRegistry.at(server.url());
        String topic = topic("subjects");
        RegistrySerdes.avro(registry, RegistrySerdeOptions.keys()).serialize(topic, order("k", 1));
        RegistrySerdes.avro(registry, RegistrySerdeOptions.values().withSubjects(SubjectStrategy.TOPIC_RECORD))
                .serialize(topic, order("v", 1));
        RegistrySerdes.avro(registry, RegistrySerdeOptions.values().withSubjects(SubjectStrategy.RECORD))
                .serialize(topic, order("r", 1));
        String subjects = rest.get("/subjects").body();
        assertThat(subjects).contains("\"" + topic + "-key\"", "\"" + topic + "-shop.Order\"", "\"shop.Order\"");
    }

    @Test
    void withAutoRegistrationOffAnUnregisteredSchemaFailsNamingTheSubjectUntilItIsRegistered() {
        SchemaRegistry registry = SchemaRegistry.at(server.url());
        String topic = topic("noauto");
        Serde<GenericRecord> serde =
                RegistrySerdes.avro(registry, RegistrySerdeOptions.values().withAutoRegister(false));
        assertThatThrownBy(() -> serde.serialize(topic, order("o", 1)))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("not registered under subject " + topic + "-value")
                .hasMessageContaining("auto-registration is off");
        RegistryRest.Answer registered = rest.register(topic + "-value", "AVRO", ORDER.toString());
        assertThat(registered.status()).isEqualTo(200);
        byte[] bytes = serde.serialize(topic, order("o", 1));
        assertThat(registered.body()).contains("\"id\":" + idOf(bytes));
    }

    @Test
    void anIncompatibleSchemaIsRefusedOnAutoRegistrationNamingTheSubject() {
        SchemaRegistry registry = SchemaRegistry.at(server.url());
        String topic = topic("incompatible");
        Serde<GenericRecord> serde = RegistrySerdes.avro(registry, RegistrySerdeOptions.values());
        serde.serialize(topic, order("o", 1));
        rest.compatibility(topic + "-value", "BACKWARD");
        Schema changed = new Schema.Parser().parse(EvolutionSchemas.ORDER_AMOUNT_STRING);
        GenericRecord bad = new GenericData.Record(changed);
        bad.put("id", "o");
        bad.put("amount", "five");
        assertThatThrownBy(() -> serde.serialize(topic, bad))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("incompatible with the schemas registered under subject " + topic + "-value");
    }

    @Test
    void anUnknownSchemaIdIsABadRecordNamingTheId() {
        Serde<GenericRecord> serde =
                RegistrySerdes.avro(SchemaRegistry.at(server.url()), RegistrySerdeOptions.values());
        assertThatThrownBy(() -> serde.deserialize("t", new byte[] {0, 0, 0, 0x30, 0x39, 2}))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("schema id 12345")
                .hasMessageContaining("does not hold");
        assertThatThrownBy(() -> serde.deserialize("t", "not framed".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("not in the schema registry's wire format");
    }

    @Test
    void anUnreachableRegistryIsRetriedThenFailsNamingTheAddress() {
        String dead = "http://127.0.0.1:" + freePort() + "/apis/ccompat/v7";
        SchemaRegistry registry = SchemaRegistry.builder()
                .url(dead)
                .retryTimeout(Duration.ofSeconds(2))
                .build();
        Serde<GenericRecord> serde = RegistrySerdes.avro(registry, RegistrySerdeOptions.values());
        assertThatThrownBy(() -> serde.serialize("t", order("o", 1)))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining(dead)
                .hasMessageContaining("attempts");
        assertThat(registry.requests()).as("retried").isGreaterThan(2);
    }

    static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Weir's verdict on each change (start-up, topology diff, savepoint restore) is the registry's:
     * for each pair, the registry under BACKWARD accepts the second schema exactly when
     * {@link FormatChanges} judges the old bytes readable.
     */
    @Test
    void weirsCompatibilityVerdictsAreTheRegistrysUnderBackward() {
        List<EvolutionSchemas.Change> changes = EvolutionSchemas.changes();
        assertThat(changes).extracting(EvolutionSchemas.Change::expectReadable).contains(true, false);
        for (EvolutionSchemas.Change c : changes) {
            String subject = topic("evolution");
            assertThat(rest.register(subject, c.type(), c.before()).status())
                    .as(c.name() + " first")
                    .isEqualTo(200);
            rest.compatibility(subject, "BACKWARD");
            RegistryRest.Answer registry = rest.register(subject, c.type(), c.after());
            boolean weir = FormatChanges.judge(c.beforeId(), c.afterId()).readable();
            assertThat(registry.status() == 200)
                    .as("%s: registry answered %s", c.name(), registry)
                    .isEqualTo(weir)
                    .isEqualTo(c.expectReadable());
        }
    }
}
