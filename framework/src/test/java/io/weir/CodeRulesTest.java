package io.weir;

import io.weir.rules.CodeRules;
import io.weir.rules.Exemption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** This module's main code against Weir's code rules: deadlines, sleeps, Jackson mappers, Kafka clients. */
class CodeRulesTest {

    @Test
    void mainCodeFollowsTheCodeRules() {
        CodeRules.checkModule(
                Path.of(""), // Maven runs the tests in the module's directory
                new Exemption(
                        "R3",
                        "io.weir.serde.JsonSerde",
                        "users' values, read by the strict mapper Serdes.json documents; a public package may"
                                + " not use internal.json.Json, whose mapper is lenient for Weir's own documents"));
    }
}
