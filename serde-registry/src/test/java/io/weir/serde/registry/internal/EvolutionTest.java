package io.weir.serde.registry.internal;

import static io.weir.serde.registry.internal.EvolutionSchemas.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import io.weir.internal.topology.FormatChanges;
import io.weir.serde.FormatEvolution.Verdict;
import io.weir.serde.registry.RegistrySerdeOptions;
import org.junit.jupiter.api.Test;

/** The evolution rules through {@link FormatChanges}, so the service entry is checked too. */
class EvolutionTest {

    static String avro(String schema) {
        return FormatIds.of(FormatIds.AVRO, RegistrySerdeOptions.values(), schema);
    }

    @Test
    void avroFieldAddedWithADefaultIsReadable() {
        Verdict v = FormatChanges.judge(avro(ORDER_V1), avro(ORDER_V2_DEFAULT));
        assertThat(v.readable()).as(v.reason()).isTrue();
    }

    @Test
    void avroFieldAddedWithoutADefaultIsRefusedNamingTheField() {
        Verdict v = FormatChanges.judge(avro(ORDER_V1), avro(ORDER_V2_NO_DEFAULT));
        assertThat(v.readable()).isFalse();
        assertThat(v.reason()).contains("field currency").contains("without a default");
    }

    @Test
    void avroTypeChangeIsRefusedNamingTheNestedField() {
        String customer =
                "{\"type\":\"record\",\"name\":\"C\",\"namespace\":\"shop\",\"fields\":[{\"name\":\"order\",\"type\":"
                        + ORDER_V1 + "}]}";
        String changed = customer.replace(ORDER_V1, ORDER_AMOUNT_STRING);
        Verdict v = FormatChanges.judge(avro(customer), avro(changed));
        assertThat(v.readable()).isFalse();
        assertThat(v.reason()).contains("field order.amount").contains("type changed");
    }

    @Test
    void avroRemovingAFieldIsReadableAndReadingAnySchemaReadsEverything() {
        assertThat(FormatChanges.judge(avro(ORDER_V2_DEFAULT), avro(ORDER_V1)).readable())
                .isTrue();
        assertThat(FormatChanges.judge(avro(ORDER_V1), avro(FormatIds.ANY_SCHEMA))
                        .readable())
                .isTrue();
        assertThat(FormatChanges.judge(avro(FormatIds.ANY_SCHEMA), avro(ORDER_V1))
                        .readable())
                .isFalse();
    }

    @Test
    void anotherKindOrAnotherFormatIsRefused() {
        assertThat(FormatChanges.judge(avro(ORDER_V1), "json").readable()).isFalse();
        String json = FormatIds.of(FormatIds.JSON_SCHEMA, RegistrySerdeOptions.values(), "{}");
        assertThat(FormatChanges.judge(avro(ORDER_V1), json).reason())
                .contains("avro bytes cannot be read as json-schema");
    }

    @Test
    void labelsNameTheSchemaNotTheWholeText() {
        assertThat(FormatChanges.label(avro(ORDER_V1))).startsWith("avro value shop.Order (schema ");
    }

    @Test
    void protobufRules() {
        String v1 = protoId(protoFile(field("id", 1, Type.TYPE_STRING), field("amount", 2, Type.TYPE_INT32)));
        String added = protoId(protoFile(
                field("id", 1, Type.TYPE_STRING),
                field("amount", 2, Type.TYPE_INT32),
                field("note", 3, Type.TYPE_STRING)));
        String retyped = protoId(protoFile(field("id", 1, Type.TYPE_STRING), field("amount", 2, Type.TYPE_DOUBLE)));
        String renamed = protoId(protoFile(field("id", 1, Type.TYPE_STRING), field("total", 2, Type.TYPE_INT32)));
        String removed = protoId(protoFile(field("id", 1, Type.TYPE_STRING)));
        String removedReserved = protoId(reserving(protoFile(field("id", 1, Type.TYPE_STRING)), 2, "amount"));
        String reusedReserved = protoId(
                reserving(protoFile(field("id", 1, Type.TYPE_STRING), field("x", 2, Type.TYPE_STRING)), 2, "amount"));
        assertThat(FormatChanges.judge(v1, added).readable()).isTrue();
        assertThat(FormatChanges.judge(v1, removedReserved).readable()).isFalse();
        assertThat(FormatChanges.judge(v1, removed).reason()).contains("field shop.Order.amount (number 2): removed");
        assertThat(FormatChanges.judge(v1, renamed).reason()).contains("renamed to total");
        assertThat(FormatChanges.judge(removedReserved, reusedReserved).reason())
                .contains("uses a reserved number");
        Verdict v = FormatChanges.judge(v1, retyped);
        assertThat(v.readable()).isFalse();
        assertThat(v.reason()).contains("field shop.Order.amount (number 2)").contains("int32 became double");
    }

    static String json(String schema) {
        return FormatIds.of(FormatIds.JSON_SCHEMA, RegistrySerdeOptions.values(), schema);
    }

    @Test
    void jsonSchemaRules() {
        String v1 = "{\"title\":\"Order\",\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},"
                + "\"amount\":{\"type\":\"integer\"}},\"required\":[\"id\"]}";
        String optionalAdded = v1.replace(
                "\"amount\":{\"type\":\"integer\"}", "\"amount\":{\"type\":\"number\"},\"note\":{\"type\":\"string\"}");
        String requiredAdded = v1.replace("\"required\":[\"id\"]", "\"required\":[\"id\",\"amount\"]");
        String retyped = v1.replace("\"amount\":{\"type\":\"integer\"}", "\"amount\":{\"type\":\"string\"}");
        assertThat(FormatChanges.judge(json(v1), json(optionalAdded)).reason())
                .contains("field note: added with a type while the old schema admitted any property");
        String closed = v1.replace("\"required\"", "\"additionalProperties\":false,\"required\"");
        String closedAdded = optionalAdded.replace("\"required\"", "\"additionalProperties\":false,\"required\"");
        assertThat(FormatChanges.judge(json(closed), json(closedAdded)).readable())
                .as("integer widened to number, a property added to a closed schema")
                .isTrue();
        Verdict required = FormatChanges.judge(json(v1), json(requiredAdded));
        assertThat(required.readable()).isFalse();
        assertThat(required.reason()).contains("field amount").contains("required by the new schema");
        Verdict v = FormatChanges.judge(json(v1), json(retyped));
        assertThat(v.reason()).contains("field amount: type integer became string");
    }
}
