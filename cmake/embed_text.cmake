# cmake -DINPUT=file -DOUTPUT=header [-DNAME=identifier] -P embed_text.cmake
# Writes the file's text as a raw string literal, in chunks the compiler accepts; the
# header declares `NAME`, an array of the chunks (vrambench_schema_text by default).
if(NOT NAME)
  set(NAME vrambench_schema_text)
endif()
file(READ ${INPUT} text)
string(LENGTH "${text}" length)
set(out "// Generated from ${INPUT}; do not edit.\n#pragma once\ninline constexpr const char *${NAME}[] = {\n")
set(offset 0)
while(offset LESS length)
  string(SUBSTRING "${text}" ${offset} 8000 chunk)
  string(APPEND out "R\"vrbtext(${chunk})vrbtext\",\n")
  math(EXPR offset "${offset} + 8000")
endwhile()
string(APPEND out "};\n")
file(WRITE ${OUTPUT}.tmp "${out}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
