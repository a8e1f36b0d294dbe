# cmake -DFOLDER=models -DOUTPUT=header -P embed_model_catalogue.cmake
# The model catalogue as one JSON document compiled into the core:
# {"catalogue": <FOLDER/catalogue.json>, "configs": {"<file>": <FOLDER/<file>>, ...}},
# every config named by the catalogue, as checked into FOLDER. The header declares
# vrambench_model_catalogue_text (embed_text.cmake's chunks).
file(READ ${FOLDER}/catalogue.json catalogue)
string(JSON count LENGTH "${catalogue}" models)
set(document "{\"catalogue\": ${catalogue}, \"configs\": {")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON file GET "${catalogue}" models ${i} config)
  file(READ ${FOLDER}/${file} config)
  if(i GREATER 0)
    string(APPEND document ",")
  endif()
  string(APPEND document "\n\"${file}\": ${config}")
endforeach()
string(APPEND document "}}\n")
set(INPUT ${OUTPUT}.json)
file(WRITE ${INPUT} "${document}")
set(NAME vrambench_model_catalogue_text)
include(${CMAKE_CURRENT_LIST_DIR}/embed_text.cmake)
