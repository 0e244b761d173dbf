package com.baas.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What must not compile against the generated client: a request missing a required field, a
 * value given to another field of the same type, money as a double. A control snippet that
 * compiles shows the harness itself can pass.
 */
class MustNotCompileTest {
    @TempDir
    Path out;

    static final String HEAD = "import com.baas.client.model.*; import com.baas.client.transfers.*; "
            + "import java.math.BigDecimal; class Snippet { Object make() { return ";

    /** javac's diagnostics for one snippet, or empty when it compiles. */
    String compile(String expression) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "a JDK, not a JRE");
        String source = HEAD + expression + "; } }";
        SimpleJavaFileObject file = new SimpleJavaFileObject(URI.create("string:///Snippet.java"),
                javax.tools.JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        StringWriter errors = new StringWriter();
        boolean ok = javac.getTask(errors, null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString()), null, List.of(file))
                .call();
        return ok ? "" : errors.toString();
    }

    static final String FULL = "ApplyForTransferRequest.builder().payerAccountId(\"1000000001\").payeeBankCode(\"46\")"
            + ".payeeAccountId(\"0712345678\").currency(Currency.KES).amount(new BigDecimal(\"1500.50\"))";

    @Test
    void aCompleteRequestCompiles() throws Exception {
        assertEquals("", compile(FULL + ".remark(\"rent\").build()"));
        assertTrue(Files.exists(out.resolve("Snippet.class")));
    }

    @Test
    void aMissingRequiredFieldDoesNotCompile() throws Exception {
        String errors = compile("ApplyForTransferRequest.builder().payerAccountId(\"1\").payeeAccountId(\"2\")"
                + ".currency(Currency.KES).amount(BigDecimal.ONE).build()");
        assertTrue(errors.contains("cannot find symbol") && errors.contains("payeeAccountId"), errors);
        String early = compile("ApplyForTransferRequest.builder().payerAccountId(\"1\").build()");
        assertTrue(early.contains("cannot find symbol") && early.contains("build()"), early);
    }

    @Test
    void aValueCannotLandInAnotherFieldOfTheSameType() throws Exception {
        // Two strings in the wrong order: each step names its field, so the swap is an error.
        String errors = compile("ApplyForTransferRequest.builder().payeeBankCode(\"46\").payerAccountId(\"1\")");
        assertFalse(errors.isEmpty());
        assertTrue(errors.contains("payeeBankCode"), errors);
    }

    @Test
    void moneyIsNeverADouble() throws Exception {
        String errors = compile("ApplyForTransferRequest.builder().payerAccountId(\"1\").payeeBankCode(\"46\")"
                + ".payeeAccountId(\"2\").currency(Currency.KES).amount(1500.50).build()");
        assertTrue(errors.contains("double cannot be converted to java.math.BigDecimal")
                || errors.contains("incompatible types"), errors);
    }
}
