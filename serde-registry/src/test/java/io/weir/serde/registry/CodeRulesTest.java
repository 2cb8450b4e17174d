package io.weir.serde.registry;

import io.weir.rules.CodeRules;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** This module's main code against Weir's code rules: deadlines, sleeps, Jackson mappers, Kafka clients. */
class CodeRulesTest {

    @Test
    void mainCodeFollowsTheCodeRules() {
        CodeRules.checkModule(Path.of("")); // Maven runs the tests in the module's directory
    }
}
