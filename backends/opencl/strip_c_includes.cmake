# cmake -DINPUT=header -DOUTPUT=file -P strip_c_includes.cmake
# Copies a C header without its #include lines: OpenCL C has no C library headers, and
# the program defines the few names they would bring.
file(READ ${INPUT} text)
string(REGEX REPLACE "#include <[^>]*>" "" text "${text}")
file(WRITE ${OUTPUT}.tmp "${text}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
