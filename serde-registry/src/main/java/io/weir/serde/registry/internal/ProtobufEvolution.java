package io.weir.serde.registry.internal;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.InvalidProtocolBufferException;
import io.weir.serde.FormatEvolution.Verdict;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules by which a schema registry judges a Protobuf change compatible, the stricter of
 * Apicurio's and Confluent's where they differ, so that Weir never accepts a change a registry
 * refuses: the message keeps its name; every field keeps its number, its name, its type and its
 * cardinality (one, repeated, map), and stays (Apicurio refuses a removal even when the number is
 * reserved); reserved numbers and names stay reserved and unused; no proto2 {@code required} field is added. Fields may be added.
 * Nested messages are judged the same way.
 */
final class ProtobufEvolution {

    private final Map<String, DescriptorProto> oldTypes = new HashMap<>();
    private final Map<String, DescriptorProto> newTypes = new HashMap<>();
    private final Set<String> visited = new HashSet<>();
    private final List<String> problems = new ArrayList<>();

    private ProtobufEvolution() {}

    /** {@code <full name>;<base64 file descriptor>} on both sides. */
    static Verdict judge(String written, String reading) {
        String[] w = written.split(";", 2);
        String[] r = reading.split(";", 2);
        if (w.length < 2 || r.length < 2) {
            return Verdict.unreadable("not a Protobuf format id");
        }
        if (!w[0].equals(r[0])) {
            return Verdict.unreadable("message " + w[0] + " became " + r[0]);
        }
        ProtobufEvolution e = new ProtobufEvolution();
        try {
            e.index(FileDescriptorProto.parseFrom(Base64.getDecoder().decode(w[1])), e.oldTypes);
            e.index(FileDescriptorProto.parseFrom(Base64.getDecoder().decode(r[1])), e.newTypes);
        } catch (InvalidProtocolBufferException | IllegalArgumentException ex) {
            return Verdict.unreadable("a file descriptor does not parse: " + ex.getMessage());
        }
        e.compare("." + w[0], w[0]);
        return e.problems.isEmpty()
                ? Verdict.readable("Protobuf message " + r[0] + " reads the old message's records")
                : Verdict.unreadable(String.join("; ", e.problems));
    }

    private void index(FileDescriptorProto file, Map<String, DescriptorProto> into) {
        String prefix = file.getPackage().isEmpty() ? "" : "." + file.getPackage();
        for (DescriptorProto m : file.getMessageTypeList()) {
            index(prefix, m, into);
        }
    }

    private void index(String prefix, DescriptorProto m, Map<String, DescriptorProto> into) {
        String name = prefix + "." + m.getName();
        into.put(name, m);
        for (DescriptorProto nested : m.getNestedTypeList()) {
            index(name, nested, into);
        }
    }

    private void compare(String typeName, String path) {
        if (!visited.add(typeName)) {
            return;
        }
        DescriptorProto before = oldTypes.get(typeName);
        DescriptorProto after = newTypes.get(typeName);
        if (before == null || after == null) {
            if (after == null && before != null) {
                problems.add(path + ": message type " + typeName.substring(1) + " was removed");
            }
            return;
        }
        Map<Integer, FieldDescriptorProto> newByNumber = new HashMap<>();
        Map<String, FieldDescriptorProto> newByName = new HashMap<>();
        after.getFieldList().forEach(f -> {
            newByNumber.put(f.getNumber(), f);
            newByName.put(f.getName(), f);
        });
        Set<Integer> oldNumbers = new HashSet<>();
        for (FieldDescriptorProto o : before.getFieldList()) {
            oldNumbers.add(o.getNumber());
            String field = "field " + path + "." + o.getName() + " (number " + o.getNumber() + ")";
            FieldDescriptorProto n = newByNumber.get(o.getNumber());
            FieldDescriptorProto sameName = newByName.get(o.getName());
            if (sameName != null && sameName.getNumber() != o.getNumber()) {
                problems.add(field + ": its number changed to " + sameName.getNumber());
            }
            if (n == null) {
                // Confluent accepts a removal; Apicurio refuses it even with the number and name reserved.
                problems.add(field + ": removed (a registry may refuse that even with its number reserved)");
                continue;
            }
            if (!n.getName().equals(o.getName())) {
                problems.add(field + ": renamed to " + n.getName());
            }
            if (isMap(o, oldTypes) != isMap(n, newTypes)
                    || (o.getLabel() == Label.LABEL_REPEATED) != (n.getLabel() == Label.LABEL_REPEATED)) {
                problems.add(field + ": changed between single, repeated and map");
            } else if (o.getType() != n.getType() || !o.getTypeName().equals(n.getTypeName())) {
                problems.add(field + ": type " + shown(o) + " became " + shown(n));
            } else if (o.getType() == Type.TYPE_MESSAGE) {
                compare(n.getTypeName(), path + "." + n.getName());
            }
        }
        for (DescriptorProto.ReservedRange r : before.getReservedRangeList()) {
            for (int number = r.getStart(); number < r.getEnd() && number < r.getStart() + 10_000; number++) {
                if (!reserved(after, number)) {
                    problems.add(path + ": reserved number " + number + " is no longer reserved");
                    break;
                }
            }
        }
        for (String name : before.getReservedNameList()) {
            if (!after.getReservedNameList().contains(name)) {
                problems.add(path + ": reserved name " + name + " is no longer reserved");
            }
            if (newByName.containsKey(name)) {
                problems.add("field " + path + "." + name + ": uses a reserved name");
            }
        }
        for (FieldDescriptorProto n : after.getFieldList()) {
            if (!oldNumbers.contains(n.getNumber()) && reserved(before, n.getNumber())) {
                problems.add("field " + path + "." + n.getName() + " (number " + n.getNumber()
                        + "): uses a reserved number");
            }
            if (n.getLabel() == Label.LABEL_REQUIRED && !oldNumbers.contains(n.getNumber())) {
                problems.add("field " + path + "." + n.getName() + " (number " + n.getNumber()
                        + "): required field added, which old records lack");
            }
        }
    }

    private static boolean reserved(DescriptorProto m, int number) {
        return m.getReservedRangeList().stream().anyMatch(r -> number >= r.getStart() && number < r.getEnd());
    }

    private static boolean isMap(FieldDescriptorProto f, Map<String, DescriptorProto> types) {
        DescriptorProto t = f.getType() == Type.TYPE_MESSAGE ? types.get(f.getTypeName()) : null;
        return t != null && t.getOptions().getMapEntry();
    }

    private static String shown(FieldDescriptorProto f) {
        return switch (f.getType()) {
            case TYPE_MESSAGE, TYPE_ENUM -> f.getTypeName().substring(1);
            default -> f.getType().name().substring("TYPE_".length()).toLowerCase(java.util.Locale.ROOT);
        };
    }
}
