package io.weir.serde.registry.internal;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Protobuf file descriptor written back as {@code .proto} text, the form a schema registry
 * stores, compares and serves to other clients: syntax, package, imports, the Java options,
 * messages (nested types, map fields, oneofs, proto3 {@code optional}, reserved numbers and names,
 * proto2 defaults) and enums. Services and custom options are left out: they do not shape the bytes.
 */
final class ProtoText {

    private final StringBuilder out = new StringBuilder();
    private final FileDescriptorProto file;
    private final boolean proto3;

    private ProtoText(FileDescriptorProto file) {
        this.file = file;
        this.proto3 = "proto3".equals(file.getSyntax());
    }

    static String of(FileDescriptorProto file) {
        return new ProtoText(file).print();
    }

    private String print() {
        String syntax = file.getSyntax().isEmpty() ? "proto2" : file.getSyntax();
        if (syntax.equals("editions")) {
            throw new IllegalArgumentException(
                    "Protobuf editions are not supported by the registry serdes yet (" + file.getName() + ")");
        }
        out.append("syntax = \"").append(syntax).append("\";\n");
        if (file.hasPackage()) {
            out.append("package ").append(file.getPackage()).append(";\n");
        }
        for (String dep : file.getDependencyList()) {
            out.append("import \"").append(dep).append("\";\n");
        }
        FileOptions o = file.getOptions();
        if (o.hasJavaPackage()) {
            out.append("option java_package = \"").append(o.getJavaPackage()).append("\";\n");
        }
        if (o.hasJavaOuterClassname()) {
            out.append("option java_outer_classname = \"")
                    .append(o.getJavaOuterClassname())
                    .append("\";\n");
        }
        if (o.hasJavaMultipleFiles()) {
            out.append("option java_multiple_files = ")
                    .append(o.getJavaMultipleFiles())
                    .append(";\n");
        }
        for (DescriptorProto m : file.getMessageTypeList()) {
            message(m, "");
        }
        for (EnumDescriptorProto e : file.getEnumTypeList()) {
            enumType(e, "");
        }
        return out.toString();
    }

    private void message(DescriptorProto m, String indent) {
        out.append('\n').append(indent).append("message ").append(m.getName()).append(" {\n");
        String in = indent + "  ";
        Map<String, DescriptorProto> mapEntries = new HashMap<>();
        for (DescriptorProto nested : m.getNestedTypeList()) {
            if (nested.getOptions().getMapEntry()) {
                mapEntries.put(nested.getName(), nested);
            }
        }
        for (DescriptorProto.ReservedRange r : m.getReservedRangeList()) {
            out.append(in).append("reserved ").append(r.getStart());
            if (r.getEnd() - 1 > r.getStart()) {
                out.append(" to ").append(r.getEnd() - 1 == 536_870_911 ? "max" : String.valueOf(r.getEnd() - 1));
            }
            out.append(";\n");
        }
        for (String name : m.getReservedNameList()) {
            out.append(in).append("reserved \"").append(name).append("\";\n");
        }
        List<List<FieldDescriptorProto>> oneofs = new ArrayList<>();
        for (int i = 0; i < m.getOneofDeclCount(); i++) {
            oneofs.add(new ArrayList<>());
        }
        for (FieldDescriptorProto f : m.getFieldList()) {
            if (f.hasOneofIndex() && !f.getProto3Optional()) {
                List<FieldDescriptorProto> members = oneofs.get(f.getOneofIndex());
                if (members.isEmpty()) {
                    // A oneof is printed where its first member stands, with all its members.
                    out.append(in)
                            .append("oneof ")
                            .append(m.getOneofDecl(f.getOneofIndex()).getName())
                            .append(" {\n");
                    for (FieldDescriptorProto member : m.getFieldList()) {
                        if (member.hasOneofIndex() && member.getOneofIndex() == f.getOneofIndex()) {
                            field(member, in + "  ", mapEntries, false);
                        }
                    }
                    out.append(in).append("}\n");
                }
                members.add(f);
            } else {
                field(f, in, mapEntries, true);
            }
        }
        for (DescriptorProto nested : m.getNestedTypeList()) {
            if (!nested.getOptions().getMapEntry()) {
                message(nested, in);
            }
        }
        for (EnumDescriptorProto e : m.getEnumTypeList()) {
            enumType(e, in);
        }
        out.append(indent).append("}\n");
    }

    private void field(FieldDescriptorProto f, String in, Map<String, DescriptorProto> mapEntries, boolean labelled) {
        out.append(in);
        DescriptorProto entry = f.getType() == FieldDescriptorProto.Type.TYPE_MESSAGE
                ? mapEntries.get(simpleName(f.getTypeName()))
                : null;
        if (entry != null && f.getLabel() == FieldDescriptorProto.Label.LABEL_REPEATED) {
            out.append("map<")
                    .append(typeName(entry.getField(0)))
                    .append(", ")
                    .append(typeName(entry.getField(1)))
                    .append("> ");
        } else {
            if (labelled) {
                out.append(label(f));
            }
            out.append(typeName(f)).append(' ');
        }
        out.append(f.getName()).append(" = ").append(f.getNumber());
        if (f.hasDefaultValue() && !proto3) {
            String v = f.getDefaultValue();
            out.append(" [default = ")
                    .append(f.getType() == FieldDescriptorProto.Type.TYPE_STRING ? "\"" + v + "\"" : v)
                    .append(']');
        }
        out.append(";\n");
    }

    private String label(FieldDescriptorProto f) {
        return switch (f.getLabel()) {
            case LABEL_REPEATED -> "repeated ";
            case LABEL_REQUIRED -> "required ";
            case LABEL_OPTIONAL -> !proto3 || f.getProto3Optional() ? "optional " : "";
        };
    }

    private static String typeName(FieldDescriptorProto f) {
        return switch (f.getType()) {
            case TYPE_MESSAGE, TYPE_ENUM, TYPE_GROUP -> f.getTypeName();
            default -> f.getType().name().substring("TYPE_".length()).toLowerCase(Locale.ROOT);
        };
    }

    private static String simpleName(String typeName) {
        return typeName.substring(typeName.lastIndexOf('.') + 1);
    }

    private void enumType(EnumDescriptorProto e, String indent) {
        out.append('\n').append(indent).append("enum ").append(e.getName()).append(" {\n");
        for (EnumValueDescriptorProto v : e.getValueList()) {
            out.append(indent)
                    .append("  ")
                    .append(v.getName())
                    .append(" = ")
                    .append(v.getNumber())
                    .append(";\n");
        }
        out.append(indent).append("}\n");
    }
}
