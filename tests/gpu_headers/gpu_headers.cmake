# SPDX-License-Identifier: BSD-3-Clause
# Our hand-written GPU declarations (lib/gpu/gpu_rt.h, gpu_ze.h) compiled
# against the vendors' own headers: a mismatch fails the build. Each check
# program says how many declarations it checked (ctest unit.gpu_headers_*),
# and mutants.sh shows each check refusing wrong declarations. Headers:
# scripts/deps.sh installs Debian's libamdhip64-dev and libze-dev, and the
# CUDA runtime wheel into CXD_CUDA_DIR (scripts/cuda-wheel.sh); a vendor
# whose headers are missing is skipped, saying so.
set(CXD_CUDA_DIR "/opt/cxd-cuda" CACHE PATH
    "CUDA runtime headers and libcudart.so.12 (scripts/cuda-wheel.sh)")
find_path(CXD_CUDA_INCLUDE cuda_runtime_api.h PATHS ${CXD_CUDA_DIR}/include
          NO_DEFAULT_PATH)
find_path(CXD_CUDA_CRT crt/host_defines.h PATHS ${CXD_CUDA_DIR}/include
          NO_DEFAULT_PATH)
find_path(CXD_HIP_INCLUDE hip/hip_runtime_api.h)
find_path(CXD_ZE_INCLUDE level_zero/ze_api.h)

set(CXD_GH_DIR ${CMAKE_SOURCE_DIR}/tests/gpu_headers)
# name, check source, our header, vendor header found?, then flags
function(cxd_gpu_header_check name src hdr found)
  set(flags ${ARGN})
  if(NOT found)
    add_test(NAME unit.gpu_headers_${name}
             COMMAND sh -c "echo 'skipped: no ${name} headers (scripts/deps.sh installs them)'; [ \"$CXD_TEST_STRICT\" != 1 ] || exit 1; exit 77")
    set_tests_properties(unit.gpu_headers_${name} PROPERTIES LABELS unit
                         SKIP_RETURN_CODE 77)
    return()
  endif()
  add_executable(check_gpu_headers_${name} ${CXD_GH_DIR}/${src})
  target_include_directories(check_gpu_headers_${name} PRIVATE
                             ${CMAKE_SOURCE_DIR}/lib)
  target_compile_options(check_gpu_headers_${name} PRIVATE ${flags})
  add_test(NAME unit.gpu_headers_${name} COMMAND check_gpu_headers_${name})
  add_test(NAME unit.gpu_headers_${name}_mutants
           COMMAND bash ${CXD_GH_DIR}/mutants.sh ${CMAKE_C_COMPILER}
                   ${CXD_GH_DIR}/${src} ${CMAKE_SOURCE_DIR}/lib/gpu/${hdr}
                   -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
                   -I${CMAKE_SOURCE_DIR}/lib ${flags})
  set_tests_properties(unit.gpu_headers_${name}
                       unit.gpu_headers_${name}_mutants
                       PROPERTIES LABELS unit TIMEOUT 60)
endfunction()

# Each runtime's headers are found when its include folder is (CUDA's
# needs its crt folder too).
set(cuda_found FALSE)
set(hip_found FALSE)
set(ze_found FALSE)
if(CXD_CUDA_INCLUDE AND CXD_CUDA_CRT)
  set(cuda_found TRUE)
endif()
if(CXD_HIP_INCLUDE)
  set(hip_found TRUE)
endif()
if(CXD_ZE_INCLUDE)
  set(ze_found TRUE)
endif()
cxd_gpu_header_check(cuda check_rt.c gpu_rt.h ${cuda_found}
                     -isystem ${CXD_CUDA_INCLUDE})
cxd_gpu_header_check(hip check_rt.c gpu_rt.h ${hip_found}
                     -DCHECK_HIP -D__HIP_PLATFORM_AMD__
                     -isystem ${CXD_HIP_INCLUDE})
cxd_gpu_header_check(ze check_ze.c gpu_ze.h ${ze_found}
                     -isystem ${CXD_ZE_INCLUDE})
