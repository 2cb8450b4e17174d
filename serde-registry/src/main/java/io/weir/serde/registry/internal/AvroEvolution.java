package io.weir.serde.registry.internal;

import io.weir.serde.FormatEvolution.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaParseException;

/**
 * Avro's reader-writer check (the one the registries apply for {@code BACKWARD}), with each
 * incompatibility named by its field path rather than Avro's JSON pointer.
 */
final class AvroEvolution {

    private AvroEvolution() {}

    static Verdict judge(String written, String reading) {
        if (FormatIds.ANY_SCHEMA.equals(reading)) {
            return Verdict.readable("the new serde reads every record with the schema it was written with");
        }
        if (FormatIds.ANY_SCHEMA.equals(written)) {
            return Verdict.unreadable("the old serde read any schema, so what it wrote is not known;"
                    + " the new one reads only " + name(reading));
        }
        Schema writer;
        Schema reader;
        try {
            writer = new Schema.Parser().parse(written);
            reader = new Schema.Parser().parse(reading);
        } catch (SchemaParseException e) {
            return Verdict.unreadable("a schema does not parse: " + e.getMessage());
        }
        SchemaCompatibility.SchemaPairCompatibility c =
                SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (c.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return Verdict.readable("Avro schema " + reader.getFullName() + " reads the old schema's records");
        }
        List<String> problems = new ArrayList<>();
        for (Incompatibility i : c.getResult().getIncompatibilities()) {
            problems.add(fieldPath(reader, i.getLocation()) + ": " + words(i));
        }
        return Verdict.unreadable(String.join("; ", problems));
    }

    static String name(String schema) {
        if (FormatIds.ANY_SCHEMA.equals(schema)) {
            return "any schema";
        }
        try {
            return new Schema.Parser().parse(schema).getFullName();
        } catch (SchemaParseException e) {
            return "an unparsable schema";
        }
    }

    private static String words(Incompatibility i) {
        return switch (i.getType()) {
            case READER_FIELD_MISSING_DEFAULT_VALUE -> "added without a default, so old records have no value for it";
            case TYPE_MISMATCH -> "type changed: " + i.getMessage();
            case MISSING_ENUM_SYMBOLS -> "enum symbols removed: " + i.getMessage();
            case MISSING_UNION_BRANCH -> "union lost a branch old records use: " + i.getMessage();
            case NAME_MISMATCH -> "type renamed without an alias: " + i.getMessage();
            case FIXED_SIZE_MISMATCH -> "fixed size changed: " + i.getMessage();
        };
    }

    /** "/fields/1/type/fields/0" as "field customer.email"; the record itself when the pointer is empty. */
    static String fieldPath(Schema reader, String location) {
        List<String> path = new ArrayList<>();
        Schema current = reader;
        String[] tokens = location.split("/");
        for (int t = 1; t < tokens.length && current != null; t++) {
            String token = tokens[t];
            switch (token) {
                case "fields" -> {
                    if (t + 1 < tokens.length && current.getType() == Schema.Type.RECORD) {
                        int index = Integer.parseInt(tokens[++t]);
                        Schema.Field f = current.getFields().get(index);
                        path.add(f.name());
                        current = f.schema();
                    }
                }
                case "type" -> {
                    // the field's type: already the current schema
                }
                case "items" -> current = current.getType() == Schema.Type.ARRAY ? current.getElementType() : null;
                case "values" -> current = current.getType() == Schema.Type.MAP ? current.getValueType() : null;
                default -> {
                    if (current.getType() == Schema.Type.UNION && token.chars().allMatch(Character::isDigit)) {
                        current = current.getTypes().get(Integer.parseInt(token));
                    } else {
                        t = tokens.length; // name, symbols, size: a property of the current type
                    }
                }
            }
        }
        return path.isEmpty() ? "record " + reader.getFullName() : "field " + String.join(".", path);
    }
}
