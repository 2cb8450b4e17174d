package io.weir.serde.registry.internal;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import io.weir.serde.registry.RegistrySerdeOptions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Schema changes of each kind, both ways, for the unit tests and for the comparison with a real registry. */
public final class EvolutionSchemas {

    public static final String ORDER_V1 = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"shop\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"}]}";
    public static final String ORDER_V2_DEFAULT =
            "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"shop\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"},"
                    + "{\"name\":\"currency\",\"type\":\"string\",\"default\":\"EUR\"}]}";
    public static final String ORDER_V2_NO_DEFAULT = ORDER_V2_DEFAULT.replace(",\"default\":\"EUR\"", "");
    public static final String ORDER_AMOUNT_STRING =
            ORDER_V1.replace("\"amount\",\"type\":\"long\"", "\"amount\",\"type\":\"string\"");
    public static final String ORDER_AMOUNT_INT =
            ORDER_V1.replace("\"amount\",\"type\":\"long\"", "\"amount\",\"type\":\"int\"");

    public static final String PAYMENT_V1 =
            "{\"title\":\"Payment\",\"type\":\"object\",\"properties\":{\"id\":{\"type\":"
                    + "\"string\"},\"cents\":{\"type\":\"integer\"}},\"required\":[\"id\"]}";

    public static final String PAYMENT_CLOSED =
            PAYMENT_V1.replace("\"required\"", "\"additionalProperties\":false,\"required\"");

    /** A change: the schemas as the registry takes them, Weir's format ids, and the verdict expected. */
    public record Change(
            String name,
            String type,
            String before,
            String after,
            String beforeId,
            String afterId,
            boolean expectReadable) {}

    private EvolutionSchemas() {}

    public static List<Change> changes() {
        List<Change> c = new ArrayList<>();
        avro(c, "avro field added with a default", ORDER_V1, ORDER_V2_DEFAULT, true);
        avro(c, "avro field added without a default", ORDER_V1, ORDER_V2_NO_DEFAULT, false);
        avro(c, "avro field removed", ORDER_V2_DEFAULT, ORDER_V1, true);
        avro(c, "avro long became string", ORDER_V1, ORDER_AMOUNT_STRING, false);
        avro(c, "avro int promoted to long", ORDER_AMOUNT_INT, ORDER_V1, true);
        avro(c, "avro long narrowed to int", ORDER_V1, ORDER_AMOUNT_INT, false);
        FileDescriptorProto p1 = protoFile(field("id", 1, Type.TYPE_STRING), field("amount", 2, Type.TYPE_INT64));
        proto(
                c,
                "protobuf field added",
                p1,
                protoFile(
                        field("id", 1, Type.TYPE_STRING),
                        field("amount", 2, Type.TYPE_INT64),
                        field("note", 3, Type.TYPE_STRING)),
                true);
        proto(
                c,
                "protobuf field removed, its number reserved",
                p1,
                reserving(protoFile(field("id", 1, Type.TYPE_STRING)), 2, "other"),
                false);
        proto(
                c,
                "protobuf field removed, its number and name reserved",
                p1,
                reserving(protoFile(field("id", 1, Type.TYPE_STRING)), 2, "amount"),
                false);
        proto(
                c,
                "protobuf field renamed",
                p1,
                protoFile(field("id", 1, Type.TYPE_STRING), field("total", 2, Type.TYPE_INT64)),
                false);
        proto(
                c,
                "protobuf int32 widened to int64",
                protoFile(field("id", 1, Type.TYPE_STRING), field("amount", 2, Type.TYPE_INT32)),
                p1,
                false);
        proto(
                c,
                "protobuf int64 became string",
                p1,
                protoFile(field("id", 1, Type.TYPE_STRING), field("amount", 2, Type.TYPE_STRING)),
                false);
        json(
                c,
                "json schema property added to a closed schema",
                PAYMENT_CLOSED,
                PAYMENT_CLOSED.replace(
                        "\"cents\":{\"type\":\"integer\"}",
                        "\"cents\":{\"type\":\"integer\"},\"note\":{\"type\":\"string\"}"),
                true);
        json(
                c,
                "json schema property added to an open schema",
                PAYMENT_V1,
                PAYMENT_V1.replace(
                        "\"cents\":{\"type\":\"integer\"}",
                        "\"cents\":{\"type\":\"integer\"},\"note\":{\"type\":\"string\"}"),
                false);
        json(
                c,
                "json schema integer became string",
                PAYMENT_V1,
                PAYMENT_V1.replace("\"cents\":{\"type\":\"integer\"}", "\"cents\":{\"type\":\"string\"}"),
                false);
        return c;
    }

    private static void avro(List<Change> c, String name, String before, String after, boolean readable) {
        c.add(new Change(name, "AVRO", before, after, id(FormatIds.AVRO, before), id(FormatIds.AVRO, after), readable));
    }

    private static void json(List<Change> c, String name, String before, String after, boolean readable) {
        c.add(new Change(
                name,
                "JSON",
                before,
                after,
                id(FormatIds.JSON_SCHEMA, before),
                id(FormatIds.JSON_SCHEMA, after),
                readable));
    }

    private static void proto(
            List<Change> c, String name, FileDescriptorProto before, FileDescriptorProto after, boolean readable) {
        c.add(new Change(
                name,
                "PROTOBUF",
                ProtoText.of(before),
                ProtoText.of(after),
                protoId(before),
                protoId(after),
                readable));
    }

    private static String id(String kind, String schema) {
        return FormatIds.of(kind, RegistrySerdeOptions.values(), schema);
    }

    static String protoId(FileDescriptorProto file) {
        return FormatIds.of(
                FormatIds.PROTOBUF,
                RegistrySerdeOptions.values(),
                "shop.Order;" + Base64.getEncoder().encodeToString(file.toByteArray()));
    }

    static FileDescriptorProto protoFile(FieldDescriptorProto... fields) {
        return FileDescriptorProto.newBuilder()
                .setName("order.proto")
                .setPackage("shop")
                .setSyntax("proto3")
                .addMessageType(DescriptorProto.newBuilder().setName("Order").addAllField(List.of(fields)))
                .build();
    }

    /** The file with {@code number} reserved in its message. */
    static FileDescriptorProto reserving(FileDescriptorProto file, int number, String name) {
        FileDescriptorProto.Builder b = file.toBuilder();
        b.getMessageTypeBuilder(0)
                .addReservedRange(DescriptorProto.ReservedRange.newBuilder()
                        .setStart(number)
                        .setEnd(number + 1))
                .addReservedName(name);
        return b.build();
    }

    static FieldDescriptorProto field(String name, int number, Type type) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(Label.LABEL_OPTIONAL)
                .build();
    }
}
